// Hook module for the pipeline fault scenarios (loaded per suite with dynamic import).
// preToolUse: blocks `rm` in bash; rewrites reads of `secrets.txt` to `secrets.redacted.txt`;
// returns an equal-but-new input for every other call (must NOT produce the "modified" notice).
export function preToolUse(event) {
  const input = event.input ?? {};
  if (event.tool === 'bash' && /^\s*rm\b/.test(String(input.command ?? ''))) {
    return { block: 'this repository forbids deleting files from the agent' };
  }
  if (event.tool === 'read' && input.file_path === 'secrets.txt') {
    return { updatedInput: { ...input, file_path: 'secrets.redacted.txt' } };
  }
  return { updatedInput: JSON.parse(JSON.stringify(input)) };
}

// postToolUse: redacts anything that looks like an API key from built-in results.
export function postToolUse(event) {
  return { output: event.output.replace(/sk-[A-Za-z0-9]{8,}/g, 'sk-[redacted]') };
}

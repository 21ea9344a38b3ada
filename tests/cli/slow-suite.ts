/** A suite for Ctrl-C tests: `count` tasks that each write a file (so each has a workspace), then sleep `ms` in a tool. */
export function slowSuite(ms: number, count = 40): string {
  const tasks = Array.from(
    { length: count },
    (_, i) => `  - id: slow-${i}
    prompt: wait
    tools: [sleep, write]
    script:
      - tool_use: [{ name: write, input: { file_path: note.txt, content: hi } }]
      - tool_use: [{ name: sleep, input: { ms: ${ms} } }]
      - text: done
    expect: { answer: { contains: done } }
`,
  );
  return `suite: slow\ntasks:\n${tasks.join('')}`;
}

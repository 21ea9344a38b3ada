// Hook module for the PostToolUseFailure scenario: an audit hook that also tells the model
// what to do when the project's build fails (Claude Code's PostToolUseFailure event).
export function postToolUseFailure(event) {
  if (event.tool === 'bash' && event.failureKind === 'tool_error') {
    return { additionalContext: 'Project note from the hook: run `sh setup.sh` before building.' };
  }
  return {};
}

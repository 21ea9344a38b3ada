// Hook module for the slow-hook latency scenario: a PreToolUse policy check that takes 400 ms
// (a remote policy service, say). The read itself is fast; its latency must not look slow.
export async function preToolUse() {
  await new Promise((resolve) => setTimeout(resolve, 400));
  return {};
}

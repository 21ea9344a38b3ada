/**
 * The bench's task shape as suite YAML (bench/throughput.ts): read a file,
 * fix its typo with edit, answer, with file and event expectations. Tests
 * that need many real-looking tasks at once (descriptor limits, worker
 * interleaving) run this.
 */
export function typoSuiteYaml(suite: string, tasks: number): string {
  let text = `suite: ${suite}\ndefaults: { max_turns: 4, tools: [read, edit] }\ntasks:\n`;
  for (let i = 0; i < tasks; i++) {
    text += `  - id: fix-${i}
    prompt: Fix the typo in notes.txt.
    files: { notes.txt: "Helo from task ${i}\\n" }
    script:
      - tool_use: [{ name: read, input: { file_path: notes.txt } }]
      - tool_use: [{ name: edit, input: { file_path: notes.txt, old_string: Helo, new_string: Hello } }]
      - text: Fixed.
    expect:
      files: { notes.txt: { equals: "Hello from task ${i}\\n" } }
      events: [count(tool_success) == 2]
`;
  }
  return text;
}

// A harness built on the OpenAI Agents SDK (@openai/agents), as its docs show it. The SDK builds its
// OpenAI client from OPENAI_BASE_URL / OPENAI_API_KEY (set by the lab).
//   node openai-agents.mjs responses|chat
import { Agent, run, setOpenAIAPI, tool } from '@openai/agents';
import { z } from 'zod';
import { listFiles, prompt, readFile, searchFiles } from './workspace-tools.mjs';

if (process.argv[2] === 'chat') setOpenAIAPI('chat_completions');

const agent = new Agent({
  name: 'lab-agent',
  model: 'gpt-4.1',
  instructions: 'You are a careful assistant working in a small project directory.',
  tools: [
    tool({ name: 'read_file', description: 'Read a file of the project.', parameters: z.object({ path: z.string() }), execute: ({ path }) => readFile(path) }),
    tool({ name: 'list_dir', description: 'List a directory of the project.', parameters: z.object({ path: z.string() }), execute: ({ path }) => listFiles(path) }),
    tool({ name: 'search_files', description: 'Search the project for a text.', parameters: z.object({ pattern: z.string() }), execute: ({ pattern }) => searchFiles(pattern) }),
  ],
});

const result = await run(agent, prompt(), { maxTurns: 30 });
console.log(result.finalOutput);

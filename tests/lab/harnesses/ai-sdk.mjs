// A harness built on the Vercel AI SDK (ai + @ai-sdk/anthropic / @ai-sdk/openai), as its docs show it.
// Base URLs come from the lab's environment: @ai-sdk/anthropic wants the /v1 in its base URL.
//   node ai-sdk.mjs anthropic|chat|responses [stream]
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import { listFiles, prompt, readFile, searchFiles } from './workspace-tools.mjs';

const [wire = 'anthropic', mode = 'generate'] = process.argv.slice(2);
const openai = createOpenAI({ baseURL: process.env.OPENAI_BASE_URL });
const model =
  wire === 'anthropic'
    ? createAnthropic({ baseURL: `${process.env.ANTHROPIC_BASE_URL}/v1` })('claude-sonnet-4-5')
    : wire === 'chat'
      ? openai.chat('gpt-4.1')
      : openai.responses('gpt-4.1');

const tools = {
  readFile: tool({ description: 'Read a file of the project.', inputSchema: z.object({ filePath: z.string() }), execute: async ({ filePath }) => readFile(filePath) }),
  listFiles: tool({ description: 'List a directory of the project.', inputSchema: z.object({ path: z.string().optional() }), execute: async ({ path }) => listFiles(path) }),
  search: tool({ description: 'Search the project for a text.', inputSchema: z.object({ query: z.string() }), execute: async ({ query }) => searchFiles(query) }),
};

const options = { model, tools, system: 'You are a careful assistant working in a small project directory.', prompt: prompt(), stopWhen: stepCountIs(30) };
if (mode === 'stream') {
  const result = streamText({ ...options, onError: ({ error }) => console.error(String(error)) });
  console.log(await result.text);
} else {
  const result = await generateText(options);
  console.log(result.text);
}

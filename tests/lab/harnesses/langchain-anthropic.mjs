// A harness built on LangChain (langchain's createAgent with @langchain/anthropic's ChatAnthropic),
// as its docs show it. ChatAnthropic reads ANTHROPIC_BASE_URL / ANTHROPIC_API_KEY (set by the lab).
//   node langchain-anthropic.mjs
import { ChatAnthropic } from '@langchain/anthropic';
import { createAgent, tool } from 'langchain';
import { z } from 'zod';
import { listFiles, prompt, readFile, searchFiles } from './workspace-tools.mjs';

const model = new ChatAnthropic({ model: 'claude-sonnet-4-5', maxTokens: 1024 });
const agent = createAgent({
  model,
  systemPrompt: 'You are a careful assistant working in a small project directory.',
  tools: [
    tool(({ file_path }) => readFile(file_path), { name: 'view', description: 'View a file of the project.', schema: z.object({ file_path: z.string() }) }),
    tool(({ path }) => listFiles(path), { name: 'ls', description: 'List a directory of the project.', schema: z.object({ path: z.string().optional() }) }),
    tool(({ pattern }) => searchFiles(pattern), { name: 'grep', description: 'Search the project for a text.', schema: z.object({ pattern: z.string() }) }),
  ],
});

const result = await agent.invoke({ messages: [{ role: 'user', content: prompt() }] }, { recursionLimit: 60 });
console.log(result.messages.at(-1)?.content);

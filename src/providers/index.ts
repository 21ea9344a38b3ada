/** Provider layer: the neutral Model interface and the adapters on the official SDKs. */
export * from './types.js';
export { AnthropicModel, type AnthropicModelOptions } from './anthropic.js';
export { OpenAIModel, type OpenAIModelOptions } from './openai.js';
export { OpenAIResponsesModel, type OpenAIResponsesModelOptions } from './openai-responses.js';
export { createModel, type CreateModelOptions, type ProviderName } from './factory.js';
export { classifyAnthropicStop, classifyOpenAIStop, classifyResponsesStop } from './stop-class.js';
export { parseToolArguments } from './tool-arguments.js';
export { OPENAI_TOOL_ERROR_PREFIX, type MaxTokensParam } from './openai-mapping.js';

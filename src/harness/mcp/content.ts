/**
 * An MCP tools/call result as the text the model receives. Tool results are
 * text in this harness (providers/types.ts ToolResultBlock), so every block
 * becomes text; none is dropped silently:
 *
 * - `text`: as is;
 * - `image` / `audio`: one placeholder line naming the type and size, which
 *   the token estimate charges the fixed per-image cost (results/token-estimate.ts);
 * - `resource` (embedded): its text, or a line naming the binary blob;
 * - `resource_link`: a line with its URI;
 * - a block type this version does not know: a line naming the type.
 *
 * With no content blocks, `structuredContent` is sent as JSON (the spec asks
 * servers to mirror it in a text block, but not all do).
 */
import { mediaPlaceholder } from '../results/token-estimate.js';

export interface McpContentBlock {
  type: string;
  [key: string]: unknown;
}

export interface McpCallResult {
  content?: readonly McpContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  /** The 2024-10 protocol's result shape. */
  toolResult?: unknown;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const oneLine = (v: unknown, max: number): string => str(v).replace(/\s+/g, ' ').slice(0, max);

export function blockText(block: McpContentBlock): string {
  switch (block.type) {
    case 'text':
      return str(block.text);
    case 'image':
    case 'audio':
      return mediaPlaceholder(block.type, str(block.mimeType), str(block.data).length);
    case 'resource': {
      const resource = (typeof block.resource === 'object' && block.resource !== null ? block.resource : {}) as Record<string, unknown>;
      const uri = oneLine(resource.uri, 500);
      if (typeof resource.text === 'string') return `[resource ${uri}]\n${resource.text}`;
      const bytes = Math.floor((str(resource.blob).length * 3) / 4);
      return `[resource ${uri}: ${oneLine(resource.mimeType, 64) || 'binary'}, ${bytes} bytes: not shown]`;
    }
    case 'resource_link':
      return `[resource link ${oneLine(block.uri, 500)}${block.name ? ` (${oneLine(block.name, 100)})` : ''}]`;
    default:
      return `[${oneLine(block.type, 40)} content: not shown]`;
  }
}

export function resultText(result: McpCallResult): string {
  const blocks = Array.isArray(result.content) ? result.content : [];
  if (blocks.length > 0) return blocks.map(blockText).join('\n');
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  if (result.toolResult !== undefined) return typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult);
  return '';
}

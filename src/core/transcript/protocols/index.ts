// The request reader of each wire protocol the gateway records.
import type { GatewayCall } from '../../records/gateway-call';
import type { RequestView } from '../request-view';
import { anthropicRequest } from './anthropic';
import { chatCompletionsRequest } from './chat-completions';
import { geminiRequest } from './gemini';
import { openaiResponsesRequest } from './openai-responses';

const READERS: Record<GatewayCall['protocol'], (body: unknown) => RequestView | undefined> = {
  'anthropic-messages': anthropicRequest,
  'openai-responses': openaiResponsesRequest,
  'chat-completions': chatCompletionsRequest,
  gemini: geminiRequest,
};

/** The request as history, or undefined when it is not one this protocol's reader knows (or was not kept). */
export function readRequest(protocol: GatewayCall['protocol'], body: unknown): RequestView | undefined {
  return READERS[protocol](body);
}

// Every protocol the scripted model server speaks.
import { anthropicAdapter } from './anthropic';
import { chatCompletionsAdapter } from './chat-completions';
import { geminiAdapter } from './gemini';
import type { ProtocolAdapter } from './model-server';
import { openaiResponsesAdapter } from './openai-responses';

export const ALL_ADAPTERS: readonly ProtocolAdapter[] = [anthropicAdapter, openaiResponsesAdapter, chatCompletionsAdapter, geminiAdapter];

// Answers the gateway gives itself (an unknown token, a spent budget, a hang, a divergence), in
// the error shape of the protocol the client speaks, so its CLI reports them as API errors.
import type { WireProtocol } from './wire-protocol';

const ANTHROPIC_TYPES: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error' };
const GEMINI_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  502: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function errorBody(protocol: WireProtocol, status: number, message: string): unknown {
  switch (protocol) {
    case 'anthropic-messages':
      return { type: 'error', error: { type: ANTHROPIC_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message } };
    case 'gemini':
      return { error: { code: status, message, status: GEMINI_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') } };
    case 'openai-responses':
    case 'chat-completions':
      return {
        error: {
          message,
          type: status === 401 ? 'invalid_request_error' : status >= 500 ? 'server_error' : 'invalid_request_error',
          param: null,
          code: status === 401 ? 'invalid_api_key' : null,
        },
      };
  }
}

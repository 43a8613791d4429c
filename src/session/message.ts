/**
 * The shape the core needs of a conversation message: the AI SDK's `ModelMessage` fits it. The core reads only
 * `role` (compaction keeps system messages and never splits an assistant message from its tool results).
 */
export interface SessionMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: unknown;
}

/**
 * `graceful-ai/ui`: for chat UIs built on the AI SDK's UI messages (`useChat`, `readUIMessageStream`). No
 * dependency on `ai` at run time and no Node built-ins, so it costs a browser bundle almost nothing.
 * See docs/streaming.md ("In a chat UI").
 */
export {
  type GracefulResetPart,
  isResetPart,
  RESET_KIND,
  type ResetDetails,
} from '../../src/stream/reset-part.js';
export { withoutDiscarded } from './without-discarded.js';

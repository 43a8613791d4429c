/**
 * TEMPORARY SHIM, to be deleted: `withoutDiscarded` from `graceful-ai/ui` (`adapters/ui/`) is being built on
 * another branch. Until it is merged, this stand-in has its exact signature and returns the message unchanged, so
 * the divergent-recovery case of `npm run test:browser` fails: the page shows the discarded text.
 */
import type { UIMessage } from 'ai';

export function withoutDiscarded(message: UIMessage): UIMessage {
  return message;
}

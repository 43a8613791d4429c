/**
 * What the fault mock answers in `npm run chat-ui`: every streamed answer is cut mid-sentence. A recovery request
 * that ends with the text shown as a prefill (Anthropic) gets the rest of the answer; any other recovery request
 * (OpenAI, Gemini) an answer in other words, which the page shows after a reset.
 */
import {
  assistantPrefill,
  lastUserText,
  reply,
  type ScriptFunction,
  streamFault,
} from '../../mocks/index.js';

export const demoScript: ScriptFunction = (request) => {
  const question = lastUserText(request);
  const answer = `You asked: "${question}". Let me think about that for a while…`;
  if (request.stream)
    return reply.text(answer, { frameDelayMs: 40, fault: streamFault.cut({ afterChars: 40 }) });
  const prefill = assistantPrefill(request);
  return prefill === undefined
    ? reply.text(`Recovered answer to "${question}": the stream was cut, this replaced it.`)
    : reply.text(answer.slice(prefill.length));
};

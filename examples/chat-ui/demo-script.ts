/**
 * What the fault mock answers in `npm run chat-ui`:
 * - a question about the weather in a city calls the `weather` tool, then answers from its result; for a city the
 *   tool does not know, this scripted model insists on it, so the tool's budget runs out in two calls and the chat
 *   shows the run's error, with both failed calls;
 * - anything else gets an answer whose stream is cut mid-sentence: a recovery request that ends with the text shown
 *   as a prefill (Anthropic) gets the rest of the answer; any other recovery request (OpenAI, Gemini) an answer in
 *   other words, which the page shows after a reset.
 */
import {
  assistantPrefill,
  lastToolResults,
  lastUserText,
  reply,
  type ScriptFunction,
  streamFault,
} from '../../mocks/index.js';

export const demoScript: ScriptFunction = (request) => {
  const question = lastUserText(request) ?? '';
  const city = /weather in ([\p{L} ]+)/iu.exec(question)?.[1]?.trim();
  if (city !== undefined) {
    const [result] = lastToolResults(request);
    if (result === undefined || result.error !== undefined) return reply.toolCall('weather', { city });
    return reply.text(`The weather in ${city}: ${JSON.parse(result.output).forecast}.`);
  }
  const answer = `You asked: "${question}". Let me think about that for a while…`;
  if (request.stream)
    return reply.text(answer, { frameDelayMs: 40, fault: streamFault.cut({ afterChars: 40 }) });
  const prefill = assistantPrefill(request);
  return prefill === undefined
    ? reply.text(`Recovered answer to "${question}": the stream was cut, this replaced it.`)
    : reply.text(answer.slice(prefill.length));
};

/**
 * The chat's agent: graceful-ai's `ToolLoopAgent` (in your app, import it from 'graceful-ai') with one tool that
 * knows the weather of a few cities. A city it does not know is the model's mistake: the tool throws `ModelRetry`
 * naming the cities it knows, which the model reads; a second failure in a row uses up the tool's budget
 * (`retries: 1`) and the run fails, which the page shows as an error, with the failed calls.
 */
import { isStepCount, type LanguageModel, tool } from 'ai';
import { z } from 'zod';
import { ModelRetry, ToolLoopAgent } from '../../adapters/ai-sdk/index.js';

export const forecasts: Record<string, string> = {
  Paris: 'Sunny, 24 °C',
  Berlin: 'Cloudy, 18 °C',
  Tokyo: 'Rain, 21 °C',
};

export const weather = tool({
  description: 'The weather in a city today.',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => {
    const forecast = forecasts[city];
    if (forecast === undefined) {
      throw new ModelRetry(`No weather station in "${city}". Cities: ${Object.keys(forecasts).join(', ')}.`);
    }
    return { city, forecast };
  },
});

export function chatAgent(model: LanguageModel) {
  return new ToolLoopAgent({
    model,
    instructions: 'You answer questions; for the weather, call the weather tool.',
    tools: { weather },
    stopWhen: isStepCount(5),
  });
}

export type ChatAgent = ReturnType<typeof chatAgent>;

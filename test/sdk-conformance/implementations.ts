/** The two implementations the suite compares: `ai`'s own functions and graceful-ai's drop-ins. */
import { generateText as sdkGenerateText, streamText as sdkStreamText } from 'ai';
import { generateText, streamText } from '../../adapters/ai-sdk/index.js';
import type { Implementation } from './observe.js';

export const sdk: Implementation = { name: 'ai', streamText: sdkStreamText, generateText: sdkGenerateText };

export const dropIn: Implementation = {
  name: 'graceful-ai',
  streamText: streamText as unknown as typeof sdkStreamText,
  generateText: generateText as unknown as typeof sdkGenerateText,
};

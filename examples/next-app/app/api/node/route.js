import { answer } from '../../../lib/answer.js';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export function GET() {
  return answer();
}

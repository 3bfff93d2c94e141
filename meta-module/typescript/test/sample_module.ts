// The TypeScript module the meta-module tests run: one tool per behaviour under test.
import { ModuleServer, ToolError } from '../src/index.js';

const parties = Number(process.env.SAMPLE_PARTIES ?? '64');
let arrived = 0;
let release: () => void;
const everyoneHere = new Promise<void>((resolve) => { release = resolve; });
const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => {
  if (signal?.aborted) {
    resolve(); // cancelled before the handler started
    return;
  }
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => { clearTimeout(timer); resolve(); });
});
const object = { type: 'object' };

await ModuleServer.builder('sample')
  .tool('word_count', { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    (args) => ({ words: String(args.text).trim().split(/\s+/).length }),
    { outputSchema: { type: 'object', properties: { words: { type: 'integer' } } } })
  .tool('reverse', object, (args) => {
    process.stderr.write(`reversing ${String(args.text)}\n`);
    return [...String(args.text ?? '')].reverse().join('');
  })
  .tool('gather', object, async (args) => {
    if (++arrived === parties) {
      release();
    }
    await everyoneHere;
    return `gathered ${Number(args.n)}`;
  })
  .tool('slow', object, async (args) => {
    await sleep(Number(args.ms));
    return `slept ${Number(args.ms)}`;
  })
  .tool('block', object, async (_args, { signal }) => {
    await sleep(3_600_000, signal);
    return 'late';
  })
  .tool('noisy', object, () => {
    console.log('a stray line on stdout');
    return 'quiet';
  })
  .tool('refuse', object, () => {
    throw new ToolError('no, thank you');
  })
  .tool('explode', object, () => {
    throw new Error('boom');
  })
  .build()
  .serve();

// A stdin filter in front of the SDK's stdio transport: it passes whole lines only and drops (and reports) a line
// longer than the limit, where the SDK's read buffer would otherwise close the whole session.
import { Transform, TransformCallback } from 'node:stream';

export class BoundedLines extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;
  private skipped = 0;

  /**
   * @param maxLineBytes the longest line passed on
   * @param log          where a skipped line is reported
   * @param invalid      answers a JSON object with an id that is not a JSON-RPC 2.0 message (code -32600)
   */
  constructor(private readonly maxLineBytes: number, private readonly log: (text: string) => void,
              private readonly invalid: (id: string | number) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      this.appendPart(chunk.subarray(start, end));
      if (newline === -1) {
        break;
      }
      this.endLine();
      start = newline + 1;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.pendingBytes > 0 || this.skipping) {
      this.endLine();
    }
    done();
  }

  private appendPart(part: Buffer): void {
    if (this.skipping) {
      this.skipped += part.length;
      return;
    }
    if (this.pendingBytes + part.length > this.maxLineBytes) {
      this.skipping = true;
      this.skipped = this.pendingBytes + part.length;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    this.pending.push(Buffer.from(part));
    this.pendingBytes += part.length;
  }

  private endLine(): void {
    if (this.skipping) {
      this.log(`skipped an input line of ${this.skipped} bytes (longer than ${this.maxLineBytes})`);
    } else {
      const line = Buffer.concat(this.pending);
      const text = line.toString('utf8').trim();
      if (text.length > 0) {
        const kind = classify(text);
        if (typeof kind === 'object') {
          if (kind.jsonrpc === '2.0' || !('id' in kind) || !['string', 'number'].includes(typeof kind.id)) {
            this.push(Buffer.concat([line, Buffer.from('\n')]));
          } else {
            this.invalid(kind.id as string | number);
          }
        } else {
          this.log(`skipped an input line that is not ${kind === 'json' ? 'a JSON object' : 'JSON'}: ${text.slice(0, 80)}`);
        }
      }
    }
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = false;
    this.skipped = 0;
  }
}

/** Whether a line is a JSON object, other JSON, or not JSON at all. */
function classify(text: string): { [key: string]: unknown } | 'json' | 'invalid' {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as { [key: string]: unknown } : 'json';
  } catch {
    return 'invalid';
  }
}

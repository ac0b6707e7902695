import { describe, expect, it } from 'vitest';
import { flatFigure, wasmResidentMb } from '../soak/waves';

describe('soak journeys --waves: memory figures', () => {
  it('counts the resident pages of a WebAssembly memory of this process, and only those', () => {
    const before = wasmResidentMb(process.pid);
    // 64 MB reserved, 40 MB touched: only the touched pages are resident.
    const memory = new WebAssembly.Memory({ initial: 1024, maximum: 2048 });
    new Uint8Array(memory.buffer).fill(1, 0, 40 * 1024 * 1024);
    const after = wasmResidentMb(process.pid);
    expect(after - before).toBeGreaterThanOrEqual(39);
    expect(after - before).toBeLessThan(60);
    expect(memory.buffer.byteLength).toBe(64 * 1024 * 1024);
  });

  it('passes when the last wave ends within 10 % of the second, and fails above', () => {
    const wave = (rssMb: number) => [{ rssMb, wasmMb: 0 }];
    expect(flatFigure([wave(300), wave(400), wave(420), wave(440)]).ok).toBe(true);
    expect(flatFigure([wave(300), wave(400), wave(420), wave(441)]).ok).toBe(false);
    // A first wave that filled caches is not the baseline: only the second is.
    expect(flatFigure([wave(100), wave(400), wave(430)]).ok).toBe(true);
    // Every instance must stay flat.
    expect(flatFigure([[{ rssMb: 300, wasmMb: 0 }, { rssMb: 300, wasmMb: 0 }], [{ rssMb: 300, wasmMb: 0 }, { rssMb: 300, wasmMb: 0 }], [{ rssMb: 300, wasmMb: 0 }, { rssMb: 340, wasmMb: 0 }]]).ok).toBe(false);
  });
});

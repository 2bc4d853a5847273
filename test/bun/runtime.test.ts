import { describe, expect, it } from 'vitest';
import {
  onBun,
  RUNTIME_UNSUPPORTED,
  RuntimeUnsupportedError,
  refuseOnBun,
  runtimeName,
} from '../../src/runtime.js';

const node = { ...process.versions, bun: undefined } as unknown as NodeJS.ProcessVersions;
const bun = { ...process.versions, node: '24.3.0', bun: '1.4.5' } as NodeJS.ProcessVersions;

describe('the runtime', () => {
  it('is named with its version, Bun before the Node.js version Bun also reports', () => {
    expect(runtimeName(bun)).toBe('Bun 1.4.5');
    expect(runtimeName({ ...node, node: '24.11.1' })).toBe('Node.js 24.11.1');
    expect(onBun(bun)).toBe(true);
    expect(onBun(node)).toBe(false);
    // This process: the Bun run of the suite sees Bun, `npm test` sees Node.js.
    expect(runtimeName()).toMatch(/^(Bun|Node\.js) \d+\.\d+\.\d+/);
    expect(onBun()).toBe('Bun' in globalThis);
  });

  it('refuses a feature on Bun, naming the feature, the runtime and why', () => {
    const refused = (() => {
      try {
        refuseOnBun('keelson/example', 'it lacks the thing', bun);
      } catch (err) {
        return err;
      }
    })();
    expect(refused).toBeInstanceOf(RuntimeUnsupportedError);
    expect(refused).toMatchObject({
      code: RUNTIME_UNSUPPORTED,
      feature: 'keelson/example',
      runtime: 'Bun 1.4.5',
      message: 'keelson/example does not run on Bun 1.4.5: it lacks the thing',
    });
  });

  it('lets the feature run on Node.js', () => {
    expect(() => refuseOnBun('keelson/example', 'it lacks the thing', node)).not.toThrow();
  });
});

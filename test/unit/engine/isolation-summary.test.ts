import { describe, expect, it } from 'vitest';
import { summarizeIsolation } from '../../../src/engine/isolation-summary.js';
import type { EngineIsolation } from '../../../src/model/host-types.js';

function engine(name: string, held: Partial<EngineIsolation> = {}): EngineIsolation {
  return { packages: [name], tags: [name], pid: 100, pidNamespace: true, permissionModel: true, ...held };
}

describe('the flat isolation summary of several engines', () => {
  it('says a containment holds only when every engine has it, and adds up what their inits reaped', () => {
    const engines = [engine('a', { zombiesReaped: 2 }), engine('b', { zombiesReaped: 3, permissionModel: false })];
    expect(summarizeIsolation(engines)).toEqual({
      tier: 'process',
      pidNamespace: true,
      permissionModel: false,
      zombiesReaped: 5,
      engines,
    });
  });

  it('leaves the count out where no init counts, and claims nothing with no engine running', () => {
    expect(summarizeIsolation([engine('a')])).toEqual({
      tier: 'process',
      pidNamespace: true,
      permissionModel: true,
      engines: [engine('a')],
    });
    expect(summarizeIsolation([])).toEqual({
      tier: 'process',
      pidNamespace: false,
      permissionModel: false,
      engines: [],
    });
  });
});

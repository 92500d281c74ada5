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

  it('summarizes the sandbox as the weakest layer any engine has, with the first reason for each gap', () => {
    const bounds = { memoryBytes: 512 * 2 ** 20, pids: 64 };
    const held = { capabilities: 'none', fsView: 'read-only', cgroup: bounds, network: 'own' } as const;
    const open = engine('b', {
      ...held,
      fsView: 'open',
      cgroup: null,
      missing: { fsView: 'permissions.fsWrite names /', cgroup: 'no writable cgroup: b' },
    });
    const late = engine('c', { ...held, cgroup: null, missing: { cgroup: 'no writable cgroup: c' } });
    expect(summarizeIsolation([engine('a', held), open, late])).toMatchObject({
      capabilities: 'none',
      fsView: 'open',
      cgroup: null,
      network: 'own',
      missing: { fsView: 'permissions.fsWrite names /', cgroup: 'no writable cgroup: b' },
    });
    // Every engine holding every layer: the layers, and no gap.
    const whole = summarizeIsolation([engine('a', held), engine('d', held)]);
    expect(whole).toMatchObject(held);
    expect(whole).not.toHaveProperty('missing');
    // Engines that reported no layer (the sandbox's fields absent): none in the summary either.
    expect(summarizeIsolation([engine('a')])).not.toHaveProperty('capabilities');
  });
});

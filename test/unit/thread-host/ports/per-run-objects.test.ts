import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { createOutputBudget } from '../../../../src/contracts/output-budget.js';
import { openControlPort } from '../../../../src/thread-host/ports/control-port.js';
import { openGroupClaims } from '../../../../src/thread-host/ports/group-claims.js';
import { RunStream } from '../../../../src/thread-host/ports/run-stream.js';
import { exposeSinks } from '../../../../src/thread-host/ports/sink-port.js';

/** The accessors `value` defines on itself, not on its prototype. */
function ownAccessors(value: object): string[] {
  return Object.entries(Object.getOwnPropertyDescriptors(value))
    .filter(([, descriptor]) => descriptor.get !== undefined || descriptor.set !== undefined)
    .map(([name]) => name);
}

// Every EXEC makes these objects. An object literal with a getter over its closure made a V8 map
// of its own in the old space, which held the run's closures — and so its whole context —
// through every young-generation collection: ~15 KB promoted per no-op EXEC, 8–10 ms scavenges
// every ~200 EXECs and a mark-compact soon after. Their accessors live on a class's prototype,
// and they still read the state as it changes.
describe('the objects every run makes', () => {
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  it('an output budget reads its running totals through no accessor of its own', () => {
    const budget = createOutputBudget(4);
    expect(ownAccessors(budget)).toEqual([]);
    expect(budget.take('abcdef')).toBe('abcd');
    expect({ used: budget.used, exceeded: budget.exceeded }).toEqual({ used: 4, exceeded: true });
  });

  it("a task's group claims count refusals, starts and the first group through no accessor of their own", () => {
    const claims = openGroupClaims('run-marker-of-this-test');
    closers.push(claims.close);
    expect(ownAccessors(claims)).toEqual([]);
    // pid 1 leads no group of this run: refused, yet reported first is only a pid above 1.
    expect(typeof claims.claim(1)).toBe('string');
    expect({ refused: claims.refused, first: claims.first }).toEqual({ refused: 1, first: undefined });
  });

  it("a task's control port and a run's sink port expose their state through no accessor of their own", () => {
    const control = openControlPort('run-marker-of-this-test');
    const sinks = exposeSinks(new RunStream({ out: { mimetype: 'text/plain' } }));
    closers.push(control.close, sinks.close);
    expect(ownAccessors(control)).toEqual([]);
    expect(ownAccessors(sinks)).toEqual([]);
    expect({
      groups: [...control.groups],
      refused: control.refusedGroups,
      started: control.startedGroups,
      first: control.firstGroup,
      overflowed: sinks.overflowed,
    }).toEqual({ groups: [], refused: 0, started: 0, first: undefined, overflowed: false });
  });

  it('no object literal in the source defines an accessor (where one is needed, a class has it on its prototype)', () => {
    const src = fileURLToPath(new URL('../../../../src/', import.meta.url));
    const found: string[] = [];
    for (const file of sourceFiles(src)) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if ((ts.isGetAccessor(node) || ts.isSetAccessor(node)) && ts.isObjectLiteralExpression(node.parent))
          found.push(`${file.slice(src.length)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(found).toEqual([]);
  });
});

/** Every TypeScript source file under `dir`, built leaves' output left out. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'dist' || entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

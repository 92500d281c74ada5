// The source of the fixture leaf fixtures/compat/node_modules/@acme/plurnk-execs-legacy, written
// the way a plurnk 1.x leaf is: protected `binary`/`spawnArgs` overrides, the static
// ErrorDetail API, the body read as `command`, 1.x notices and interactions, a BigInt replacer,
// extra result fields, an undefined Problem extension and a Problem type of its own.
// leaf.test.ts type-checks it with this package's tsc; its compiled form is the fixture's index.js
// (npx tsc test/compat/legacy-leaf.source.ts --module nodenext --moduleResolution nodenext --target es2022
// --types node --skipLibCheck --rootDir test/compat --outDir <tmp>, then copy it to lib/index.js).
import {
  CommandSyntaxError,
  ERROR_DETAIL_LIMIT,
  ErrorDetail,
  renderJsonResult,
  Results,
  SubprocessExecutor,
} from '@plurnk/plurnk-execs';
import type { ChannelDecl, ExecArgs, ExecResult, ExecutorMetadata, SpawnArgs } from '@plurnk/plurnk-execs';

const OWNER = 'executor:legacy';
const MAX_NUMBERS = 5;
const bigints = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? value.toString() : value);

export default class Legacy extends SubprocessExecutor {
  constructor(metadata: ExecutorMetadata) {
    super(metadata);
  }

  override get channels(): Readonly<Record<string, ChannelDecl>> {
    return this.runtime === 'legacy-sum' ? { results: { mimetype: 'application/json' } } : super.channels;
  }

  // `legacy` keeps the 1.x default (null: nothing to probe, available); `legacy-sum` names node.
  protected override get binary(): string | null {
    return this.runtime === 'legacy-sum' ? 'node' : super.binary;
  }

  protected override spawnArgs(_runtime: string, command: string, _target: string | null): SpawnArgs {
    if (command.includes('`')) throw new CommandSyntaxError('backticks are not supported', 'Use $(...) instead.');
    return { cmd: 'sh', args: ['-c', command], useShell: false };
  }

  override async run(args: ExecArgs): Promise<ExecResult> {
    if (this.runtime !== 'legacy-sum') return super.run(args);
    const { command = '', emit, interact, write, setState } = args;
    const limit = ErrorDetail.configuredLimit();
    if (limit === null) {
      setState('results', 'errored');
      return ErrorDetail.invalidConfiguration(OWNER);
    }
    emit({ source: 'legacy', kind: 'legacy_progress', level: 'info', message: `summing under ${ERROR_DETAIL_LIMIT}` });
    const words = command.trim().split(/\s+/).slice(1);
    if (words.length > MAX_NUMBERS) {
      setState('results', 'errored');
      const detail = `at most ${MAX_NUMBERS} numbers; received ${words.length}`;
      return {
        status: 422,
        problem: { type: 'https://acme.example/problems/too-many', title: 'Too many', status: 422, detail },
      };
    }
    let numbers: bigint[];
    try {
      numbers = words.map((word) => BigInt(word));
    } catch (err) {
      setState('results', 'errored');
      return Results.failure(
        OWNER,
        'not-a-number',
        400,
        ErrorDetail.preview(err, limit),
        {},
        {
          errorCode: (err as NodeJS.ErrnoException).code,
          stage: 'input-validation',
        },
      );
    }
    const answer = await interact({
      toolName: 'legacy-confirm',
      arguments: { count: numbers.length },
      message: 'Sum these numbers?',
      responseSchema: { type: 'boolean' },
    });
    const total = numbers.reduce((sum, n) => sum + n, 0n);
    write('results', renderJsonResult(numbers, bigints));
    setState('results', 'closed');
    return { status: 200, total: total.toString(), answer: answer.status };
  }
}

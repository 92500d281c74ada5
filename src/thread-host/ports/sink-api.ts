import * as v from 'valibot';
import {
  ClientInteractionRequestSchema,
  ClientInteractionResolutionSchema,
  type ClientInteractionResolution,
} from '../../contracts/notice.js';
import type { Limits, MachineLimit } from '../../contracts/limits.js';
import { describeIssue } from '../../contracts/result.js';
import type { SinkApi } from '../../contracts/sink-protocol.js';
import type { ViolationKind } from '../../contracts/violation.js';
import type { EmbeddingSinks } from '../../model/host-types.js';
import { embeddingSinkFailure, type RunStream } from './run-stream.js';

const EntryArgsSchema = v.tuple([
  v.pipe(v.string(), v.nonEmpty('path must not be empty')),
  v.nullable(v.string()),
  v.strictObject({ tags: v.array(v.string()), mimetype: v.optional(v.string()) }),
]);

/**
 * The six sink calls of one run, as the host applies them to `stream`: writes, states and
 * notices go to the stream; `interact` and `entry` are validated and round-trip to the embedding
 * service's `sinks`, at most `limits.pendingInteractions` interactions at once.
 */
export function serveSinkApi(stream: RunStream, sinks: EmbeddingSinks, limits: Omit<Limits, MachineLimit>): SinkApi {
  let pendingInteractions = 0;
  return {
    write: (channel, chunk, mimetype) => stream.write(channel, chunk, mimetype),
    setState: (channel, state) => stream.setState(channel, state),
    emit: (notice) => stream.emit(notice),
    flush: () => {},
    async interact(request) {
      const parsed = v.safeParse(ClientInteractionRequestSchema, request);
      if (!parsed.success)
        throw refuse(
          stream,
          'invalid-interaction',
          `interact: invalid request (${parsed.issues.map(describeIssue).join('; ')})`,
        );
      if (pendingInteractions >= limits.pendingInteractions)
        throw refuse(
          stream,
          'invalid-interaction',
          `interact: refused, ${limits.pendingInteractions} interactions are already pending (limits.pendingInteractions); await one before starting another`,
        );
      pendingInteractions += 1;
      let answer: unknown;
      try {
        answer = sinks.interact
          ? await askEmbedding(stream, 'interact', () => sinks.interact!(parsed.output))
          : ({ status: 'cancelled' } satisfies ClientInteractionResolution);
      } finally {
        pendingInteractions -= 1;
      }
      const resolution = v.safeParse(ClientInteractionResolutionSchema, answer);
      if (!resolution.success) {
        throw refuse(
          stream,
          'embedding-sink',
          `the embedding service's interact sink answered an invalid resolution (${resolution.issues.map(describeIssue).join('; ')})`,
        );
      }
      return resolution.output;
    },
    async entry(path, content, opts) {
      const parsed = v.safeParse(EntryArgsSchema, [path, content, opts]);
      if (!parsed.success)
        throw refuse(
          stream,
          'invalid-entry',
          `entry: invalid arguments (${parsed.issues.map(describeIssue).join('; ')})`,
        );
      if (!sinks.entry) throw new Error('entry: the embedding service offers no entry sink');
      const address: unknown = await askEmbedding(stream, 'entry', () => sinks.entry!(...parsed.output));
      if (typeof address !== 'string')
        throw refuse(
          stream,
          'embedding-sink',
          `the embedding service's entry sink resolved ${typeof address}, not an address string`,
        );
      return address;
    },
  };
}

/**
 * Awaits an embedding sink's answer. A throw or a rejection is recorded and rejects the leaf's
 * call with a plain Error: the service failed, not the leaf.
 */
async function askEmbedding(stream: RunStream, sink: string, call: () => unknown): Promise<unknown> {
  const fail = (how: 'threw' | 'rejected', error: unknown) => {
    const message = embeddingSinkFailure(sink, how, error);
    stream.violate('embedding-sink', message);
    return new Error(message);
  };
  let returned: unknown;
  try {
    returned = call();
  } catch (error) {
    throw fail('threw', error);
  }
  try {
    return await returned;
  } catch (error) {
    throw fail('rejected', error);
  }
}

/** Records a violation and returns the error the leaf's awaited call rejects with. */
function refuse(stream: RunStream, kind: ViolationKind, message: string): TypeError {
  stream.violate(kind, message);
  return new TypeError(message);
}

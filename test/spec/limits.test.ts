/**
 * The limits that openapi.yaml states in words because JSON Schema cannot (checked in
 * src/http/limits.ts): the words and the code say the same.
 */
import { UNIQUES_COUNTED } from '../../src/domain/evaluation';
import { JSON_MAX_DEPTH, METADATA_MAX_BYTES } from '../../src/http/limits';
import { defined } from '../helpers/defined';
import { loadSpec } from '../helpers/spec';

describe('the limits stated in the spec', () => {
  it("when Metadata's description is read, then it states the size the service enforces", async () => {
    const spec = await loadSpec();
    const metadata = defined(
      (spec.components as { schemas: Record<string, { description: string }> }).schemas.Metadata,
    );
    expect(metadata.description).toContain(`at most ${METADATA_MAX_BYTES} bytes as JSON`);
  });

  it("when WindowCounts' description is read, then it names how many values a window counts at most", async () => {
    const spec = await loadSpec();
    const counts = defined(
      (spec.components as { schemas: Record<string, { description: string }> }).schemas.WindowCounts,
    );
    expect(counts.description).toContain(`all the account's sessions`);
    expect(counts.description).toContain(`counted up to ${UNIQUES_COUNTED.toLocaleString('en-US')}`);
  });

  it("when BadRequest's description is read, then it states how deep a JSON body may nest", async () => {
    const spec = await loadSpec();
    const badRequest = defined(
      (spec.components as { responses: Record<string, { description: string }> }).responses.BadRequest,
    );
    expect(badRequest.description.replace(/\s+/g, ' ')).toContain(
      `a JSON body that nests arrays and objects more than ${JSON_MAX_DEPTH} levels deep`,
    );
  });
});

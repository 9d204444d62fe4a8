import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPlaceholderPublicId, PUBLIC_ID_RE } from '../../src/domain/wire.js';
import { derivePublicId, livePublicId } from '../../src/core/publicid.js';
import '../helpers/property.js';

const bundleId = fc.stringMatching(/^[0-9A-Za-z]{12}$/);

describe('derivePublicId', () => {
  it('is deterministic and pinned (changing it would orphan every derived report)', () => {
    expect(derivePublicId('revqZ1x8Kp0a', 12)).toBe(derivePublicId('revqZ1x8Kp0a', 12));
    expect(derivePublicId('revqZ1x8Kp0a', 12)).toMatchInlineSnapshot(`"CtRO34CQ4s03"`);
  });

  it('always matches the publicId rule and is never placeholder-shaped', () => {
    fc.assert(
      fc.property(bundleId, fc.integer({ min: 1, max: 1_000_000 }), (id, dep) => {
        const d = derivePublicId(id, dep);
        expect(d).toMatch(PUBLIC_ID_RE);
        expect(isPlaceholderPublicId(d)).toBe(false);
      }),
    );
  });

  it('differs per deployment', () => {
    fc.assert(
      fc.property(
        bundleId,
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (id, a, b) => {
          fc.pre(a !== b);
          expect(derivePublicId(id, a)).not.toBe(derivePublicId(id, b));
        },
      ),
    );
  });

  it('differs per bundle id', () => {
    fc.assert(
      fc.property(bundleId, bundleId, fc.integer({ min: 1, max: 1000 }), (a, b, dep) => {
        fc.pre(a !== b);
        expect(derivePublicId(a, dep)).not.toBe(derivePublicId(b, dep));
      }),
    );
  });
});

describe('livePublicId', () => {
  it('as-is keeps the bundle id; per-deployment derives it', () => {
    expect(livePublicId('revqZ1x8Kp0a', 'as-is', 3)).toBe('revqZ1x8Kp0a');
    expect(livePublicId('revqZ1x8Kp0a', 'per-deployment', 3)).toBe(derivePublicId('revqZ1x8Kp0a', 3));
  });
});

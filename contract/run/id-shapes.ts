import { idStyleOf } from '../../generators/context.js';
import { seedFrom } from '../../generators/index.js';

/**
 * The shapes of identifiers real deployments use (the spec does not show their format): 24-hex MongoDB ObjectIds
 * in older releases, UUIDs in newer ones, anything else elsewhere. A deployment that validates its own shape answers
 * an unknown id of that shape differently from a malformed one, so unknown ids are probed in each shape.
 */
export const idShapes = ['ObjectId', 'UUID', 'other'] as const;
export type IdShape = (typeof idShapes)[number];

/** The shape of an id, by the generators' own reading of the two eras' ids (one pair of patterns). */
export function idShape(id: string): IdShape {
  const style = idStyleOf(id);
  return style === 'object-id' ? 'ObjectId' : style === 'uuid-v7' ? 'UUID' : 'other';
}

function hex(seed: string, length: number): string {
  let out = '';
  for (let part = 0; out.length < length; part++)
    out += (seedFrom('unknown-id', seed, part) >>> 0).toString(16).padStart(8, '0');
  return out.slice(0, length);
}

/** An id of that shape no deployment can hold: derived from the seed, so a run is reproducible. */
export function unknownIdOf(shape: IdShape, seed: string): string {
  const digits = hex(seed, 32);
  if (shape === 'ObjectId') return digits.slice(0, 24);
  // Version 4 and the RFC 9562 variant bits, so a strict UUID parser accepts it.
  if (shape === 'UUID') {
    const part = (from: number, to: number) => digits.slice(from, to);
    return `${part(0, 8)}-${part(8, 12)}-4${part(13, 16)}-a${part(17, 20)}-${part(20, 32)}`;
  }
  return `evalkit-unknown-${digits.slice(0, 12)}`;
}

/** Every shape, the deployment's own first (the most seen among its ids), then the others in a fixed order. */
export function probeOrder(knownIds: readonly string[]): Array<{ shape: IdShape; own: boolean }> {
  const counts = new Map<IdShape, number>();
  for (const id of knownIds) counts.set(idShape(id), (counts.get(idShape(id)) ?? 0) + 1);
  const own = [...counts].sort((a, b) => b[1] - a[1]).map(([shape]) => shape);
  return [...own, ...idShapes.filter((shape) => !counts.has(shape))].map((shape) => ({
    shape,
    own: counts.has(shape),
  }));
}

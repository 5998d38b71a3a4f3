/**
 * A secret as a server may echo it: each character in clear, JSON-escaped (`\u0061`, `\/`, escaped again inside a
 * JSON string that holds JSON), or percent-encoded (`%61`, `%2561` encoded twice, `+` for a space), in any mix, since
 * an encoder may escape some characters and leave others.
 */

const utf8 = new TextEncoder();

/** A hex number of `width` digits matched in either case: `2f` and `2F` are one byte. */
function hexPattern(code: number, width: number): string {
  return [...code.toString(16).padStart(width, '0')]
    .map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit))
    .join('');
}

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** Every way one character may be written: in clear, JSON-escaped, percent-encoded. */
function characterForms(char: string): string {
  const units = [...Array(char.length).keys()].map((index) => char.charCodeAt(index));
  const forms = [literal(char), units.map((unit) => `\\\\+u${hexPattern(unit, 4)}`).join('')];
  if (char === '/' || char === '"' || char === '\\') forms.push(`\\\\+${literal(char)}`);
  const bytes = [...utf8.encode(char)];
  forms.push(bytes.map((byte) => `%(?:25)?${hexPattern(byte, 2)}`).join(''));
  if (char === ' ') forms.push('\\+');
  return `(?:${forms.join('|')})`;
}

/** A global pattern matching `value` in every form above. */
export function secretPattern(value: string): RegExp {
  return new RegExp([...value].map(characterForms).join(''), 'g');
}

// `--no-color` (and NO_COLOR) sends no escape sequence anywhere: no colour,
// no spinner, and a confirmation prompt that is plain text read without
// readline's terminal mode. Checked without a terminal: the style decided
// for a terminal, and the prompt written to a stream.
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { confirmOn } from '../../src/commands/context.js';
import { readSettings } from '../../src/env.js';
import { decideStyle } from '../../src/render/style.js';

const TERMINAL = { isTTY: true, columns: 120, settings: readSettings({}) };
const ESC = '\u001b';

type Style = ReturnType<typeof decideStyle>;

async function prompt(style: Style, answer: string): Promise<{ yes: boolean; written: string }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.setEncoding('utf8').on('data', (d: string) => (written += d));
  // readline's terminal mode needs a TTY-like output to draw on.
  Object.assign(output, { isTTY: true, columns: 120 });
  const asked = confirmOn(input, output, style, 'Apply these changes? (yes/no)');
  setTimeout(() => input.end(`${answer}\n`), 10);
  const yes = await asked;
  return { yes, written };
}

describe('--no-color', () => {
  test('on a terminal: no colour and no spinner, with the flag or NO_COLOR', () => {
    const flag = decideStyle({ ...TERMINAL, noColorFlag: true });
    const env = decideStyle({ ...TERMINAL, settings: readSettings({ NO_COLOR: '1' }), noColorFlag: false });
    for (const style of [flag, env]) {
      expect(style.color).toBe(false);
      expect(style.spinner).toBe(false);
      expect(style.c.red('x')).toBe('x');
    }
    // Without it the same terminal gets both (so the check above can fail).
    const coloured = decideStyle({ ...TERMINAL, noColorFlag: false });
    expect(coloured.color && coloured.spinner).toBe(true);
  });

  test('the confirmation prompt is plain text, and the answer is read', async () => {
    const plain = await prompt(decideStyle({ ...TERMINAL, noColorFlag: true }), 'yes');
    expect(plain.yes).toBe(true);
    expect(plain.written).toBe('Apply these changes? (yes/no) ');
    expect(plain.written).not.toContain(ESC);
    expect((await prompt(decideStyle({ ...TERMINAL, noColorFlag: true }), 'no')).yes).toBe(false);
  });

  test('with colour, readline draws the line itself (escape sequences): what --no-color avoids', async () => {
    const coloured = await prompt(decideStyle({ ...TERMINAL, noColorFlag: false }), 'yes');
    expect(coloured.yes).toBe(true);
    expect(coloured.written).toContain(ESC);
  });
});

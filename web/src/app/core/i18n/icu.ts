import { numberFormat, pluralRules } from './intl';

/**
 * A small ICU MessageFormat formatter for the subset Usher's translation files use:
 * `{name}`, `{n, plural, =0 {…} one {# …} other {…}}` and `{x, select, a {…} other {…}}`, with
 * ICU apostrophe quoting. It interprets instead of compiling: @messageformat/core builds
 * functions with `new Function`, which the CSP (`script-src 'self'`, no 'unsafe-eval') blocks.
 */
type Node = string | Arg | Choice | Hash;
interface Arg {
  kind: 'arg';
  name: string;
}
interface Choice {
  kind: 'plural' | 'select';
  name: string;
  options: Map<string, Node[]>;
}
interface Hash {
  kind: 'hash';
}

class Parser {
  private pos = 0;
  constructor(private readonly src: string) {}

  parse(): Node[] {
    const nodes = this.nodes(false);
    if (this.pos < this.src.length) throw this.error('unexpected "}"');
    return nodes;
  }

  /** Text and arguments up to an unmatched `}` (inside a choice) or the end. */
  private nodes(inChoice: boolean): Node[] {
    const out: Node[] = [];
    let text = '';
    const flush = () => {
      if (text) out.push(text);
      text = '';
    };
    while (this.pos < this.src.length) {
      const ch = this.src[this.pos]!;
      if (ch === '}') break;
      if (ch === '{') {
        flush();
        out.push(this.argument());
      } else if (ch === '#' && inChoice) {
        flush();
        out.push({ kind: 'hash' });
        this.pos++;
      } else if (ch === "'") {
        text += this.quoted(inChoice);
      } else {
        text += ch;
        this.pos++;
      }
    }
    flush();
    return out;
  }

  /** `''` is one apostrophe; `'{…}'`-style quoting only starts before a syntax character. */
  private quoted(inChoice: boolean): string {
    const next = this.src[this.pos + 1];
    if (next === "'") {
      this.pos += 2;
      return "'";
    }
    if (next !== '{' && next !== '}' && !(inChoice && next === '#')) {
      this.pos++;
      return "'";
    }
    const end = this.src.indexOf("'", this.pos + 1);
    const literal = this.src.slice(this.pos + 1, end === -1 ? undefined : end);
    this.pos = end === -1 ? this.src.length : end + 1;
    return literal;
  }

  private argument(): Node {
    this.pos++; // {
    const name = this.word();
    if (this.src[this.pos] === '}') {
      this.pos++;
      return { kind: 'arg', name };
    }
    this.expect(',');
    const type = this.word();
    if (type !== 'plural' && type !== 'select') throw this.error(`unsupported type "${type}"`);
    this.expect(',');
    const options = new Map<string, Node[]>();
    for (;;) {
      this.skipSpace();
      if (this.src[this.pos] === '}') break;
      const selector = this.word();
      this.skipSpace();
      this.expect('{');
      options.set(selector, this.nodes(type === 'plural'));
      this.expect('}');
    }
    this.pos++; // }
    if (!options.has('other')) throw this.error(`"${name}" has no "other" case`);
    return { kind: type, name, options };
  }

  private word(): string {
    this.skipSpace();
    const start = this.pos;
    while (this.pos < this.src.length && /[^\s,{}]/.test(this.src[this.pos]!)) this.pos++;
    const word = this.src.slice(start, this.pos);
    this.skipSpace();
    if (!word) throw this.error('expected a name');
    return word;
  }

  private skipSpace(): void {
    while (/\s/.test(this.src[this.pos] ?? '')) this.pos++;
  }

  private expect(char: string): void {
    if (this.src[this.pos] !== char) throw this.error(`expected "${char}"`);
    this.pos++;
  }

  private error(what: string): Error {
    return new Error(`ICU message "${this.src}": ${what} at ${this.pos}`);
  }
}

const parsed = new Map<string, Node[]>();

function render(
  nodes: Node[],
  params: Record<string, unknown>,
  locale: string,
  count?: number,
): string {
  let out = '';
  for (const node of nodes) {
    if (typeof node === 'string') out += node;
    else if (node.kind === 'hash')
      out += count === undefined ? '#' : numberFormat(locale).format(count);
    else if (node.kind === 'arg') out += String(params[node.name] ?? '');
    else if (node.kind === 'select') {
      const branch = node.options.get(String(params[node.name])) ?? node.options.get('other')!;
      out += render(branch, params, locale, count);
    } else {
      const n = Number(params[node.name]);
      const branch =
        node.options.get(`=${n}`) ??
        node.options.get(pluralRules(locale).select(n)) ??
        node.options.get('other')!;
      out += render(branch, params, locale, n);
    }
  }
  return out;
}

/** Formats `message` with `params` in `locale`; parsed messages are cached. */
export function formatIcu(
  message: string,
  params: Record<string, unknown>,
  locale: string,
): string {
  let nodes = parsed.get(message);
  if (!nodes) {
    nodes = new Parser(message).parse();
    parsed.set(message, nodes);
  }
  return render(nodes, params, locale);
}

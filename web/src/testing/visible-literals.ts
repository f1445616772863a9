import {
  type AST,
  ASTWithSource,
  Binary,
  BindingPipe,
  Conditional,
  Interpolation,
  LiteralPrimitive,
  ParenthesizedExpression,
  TemplateLiteral,
  type TmplAstBoundAttribute,
  type TmplAstBoundText,
  type TmplAstElement,
  TmplAstRecursiveVisitor,
  type TmplAstText,
  parseTemplate,
  tmplAstVisitAll,
} from '@angular/compiler';

/** Attributes and inputs whose value a user sees or a screen reader speaks. */
const VISIBLE_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'aria-placeholder',
  'aria-roledescription',
  'aria-valuetext',
  'title',
  'placeholder',
  'alt',
  'label',
]);

/** Elements whose text is not read as words: icon ligature names. */
const NON_TEXT_ELEMENTS = new Set(['mat-icon']);

const hasWords = (text: string) => /\p{L}{2,}/u.test(text);

/**
 * String literals an expression renders as-is ("output position"): the expression itself, the
 * branches of `?:`, operands of `+ ?? || &&`, and a pipe's input. Arguments of calls (`t('key')`)
 * and comparisons (`mode === 'dark'`) are not output.
 */
function outputLiterals(ast: AST): string[] {
  if (ast instanceof ASTWithSource) return ast.ast ? outputLiterals(ast.ast) : [];
  if (ast instanceof Interpolation) {
    return [...ast.strings.filter(hasWords), ...ast.expressions.flatMap(outputLiterals)];
  }
  if (ast instanceof LiteralPrimitive) {
    return typeof ast.value === 'string' && hasWords(ast.value) ? [ast.value] : [];
  }
  if (ast instanceof Conditional) {
    return [...outputLiterals(ast.trueExp), ...outputLiterals(ast.falseExp)];
  }
  if (ast instanceof Binary && ['+', '??', '||', '&&'].includes(ast.operation)) {
    return [...outputLiterals(ast.left), ...outputLiterals(ast.right)];
  }
  if (ast instanceof BindingPipe) return outputLiterals(ast.exp);
  if (ast instanceof ParenthesizedExpression) return outputLiterals(ast.expression);
  if (ast instanceof TemplateLiteral) return ast.elements.map((e) => e.text).filter(hasWords);
  return [];
}

class LiteralFinder extends TmplAstRecursiveVisitor {
  readonly found: string[] = [];

  override visitElement(element: TmplAstElement): void {
    for (const attr of element.attributes) {
      if (VISIBLE_ATTRIBUTES.has(attr.name) && hasWords(attr.value)) {
        this.found.push(`${attr.name}="${attr.value}" on <${element.name}>`);
      }
    }
    this.checkInputs(element.inputs, element.name);
    if (NON_TEXT_ELEMENTS.has(element.name)) return;
    super.visitElement(element);
  }

  override visitText(text: TmplAstText): void {
    if (hasWords(text.value)) this.found.push(`text "${text.value.trim()}"`);
  }

  override visitBoundText(text: TmplAstBoundText): void {
    for (const literal of outputLiterals(text.value)) this.found.push(`text "${literal.trim()}"`);
  }

  private checkInputs(inputs: TmplAstBoundAttribute[], element: string): void {
    for (const input of inputs) {
      if (!VISIBLE_ATTRIBUTES.has(input.name)) continue;
      for (const literal of outputLiterals(input.value)) {
        this.found.push(`[${input.name}]="'${literal}'" on <${element}>`);
      }
    }
  }
}

/** Every user-visible string written straight into a template instead of a translation key. */
export function findVisibleLiterals(template: string, file: string): string[] {
  const parsed = parseTemplate(template, file, { preserveWhitespaces: false });
  if (parsed.errors?.length) {
    throw new Error(`${file}: ${parsed.errors.map((e) => e.toString()).join('; ')}`);
  }
  const finder = new LiteralFinder();
  tmplAstVisitAll(finder, parsed.nodes);
  return finder.found;
}

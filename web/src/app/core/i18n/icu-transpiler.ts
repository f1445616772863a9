import { Injectable } from '@angular/core';
import type { TranslocoTranspiler, TranspileParams } from '@jsverse/transloco';
import { DEFAULT_LANGUAGE } from './languages';
import { formatIcu } from './icu';

/** Transloco's transpiler for ICU messages (see icu.ts for why not transloco-messageformat). */
@Injectable()
export class IcuTranspiler implements TranslocoTranspiler {
  private lang: string = DEFAULT_LANGUAGE;

  transpile({ value, params }: TranspileParams): unknown {
    if (typeof value !== 'string' || !value.includes('{')) return value;
    return formatIcu(value, params ?? {}, this.lang);
  }

  onLangChanged(lang: string): void {
    this.lang = lang;
  }
}

/** Reading Dockerfiles without a Docker engine (70-deploy.md §8's text rules). */
export interface Instruction {
  op: string;
  args: string;
}

export interface ParsedDockerfile {
  /** ARGs declared before the first FROM (usable in FROM lines). */
  args: Map<string, string>;
  /** Instructions per stage, FROM first. */
  stages: Instruction[][];
}

/** Instructions with continuation lines joined and comments dropped, split into stages. */
export function parseDockerfile(text: string): ParsedDockerfile {
  const logical = text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const [op, ...rest] = l.split(/\s+/);
      return { op: op!.toUpperCase(), args: rest.join(' ') };
    });
  const args = new Map<string, string>();
  const stages: Instruction[][] = [];
  for (const ins of logical) {
    if (ins.op === 'FROM') stages.push([]);
    const current = stages.at(-1);
    if (current) current.push(ins);
    else if (ins.op === 'ARG') {
      const [k, v = ''] = ins.args.split('=');
      args.set(k!, v);
    }
  }
  return { args, stages };
}

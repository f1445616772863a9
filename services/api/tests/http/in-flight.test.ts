import { InFlight } from '../../src/http/in-flight.js';

/** The in-flight replies main.ts marks `Connection: close` at shutdown (not a Set: see the module). */
describe('InFlight', () => {
  it('should hold what was added until its remover runs, newest first', () => {
    const replies = new InFlight<string>();
    const removeA = replies.add('a');
    const removeB = replies.add('b');
    const removeC = replies.add('c');
    expect([...replies]).toEqual(['c', 'b', 'a']);
    expect(replies.size).toBe(3);

    removeB(); // middle
    expect([...replies]).toEqual(['c', 'a']);
    removeC(); // head
    expect([...replies]).toEqual(['a']);
    removeA(); // last
    expect([...replies]).toEqual([]);
    expect(replies.size).toBe(0);
  });

  it('should ignore a remover that runs twice', () => {
    const replies = new InFlight<string>();
    const removeA = replies.add('a');
    replies.add('b');
    removeA();
    removeA();
    expect([...replies]).toEqual(['b']);
    expect(replies.size).toBe(1);
  });

  it('should let a shutdown remove replies while it goes through them', () => {
    const replies = new InFlight<number>();
    const removers = [1, 2, 3, 4].map((n) => replies.add(n));
    const seen: number[] = [];
    for (const n of replies) {
      seen.push(n);
      removers[n - 1]!();
      if (n === 4) removers[2]!(); // a reply further on closes meanwhile
    }
    expect(seen).toEqual([4, 3, 2, 1]);
    expect(replies.size).toBe(0);
  });

  it('should keep working when the same item is added again after it left', () => {
    const replies = new InFlight<string>();
    replies.add('a')();
    const again = replies.add('a');
    expect([...replies]).toEqual(['a']);
    again();
    expect(replies.size).toBe(0);
  });
});

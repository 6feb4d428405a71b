// 性质测试的热循环里用的 expect：fast-check 一个性质要跑上百次，每次十几二十条断言，vitest 的 expect 每调一次
// 都要更新它的计数状态、走一遍 chai 的代理，整套测试里光这些就占了好几秒 CPU。
// fastExpect(x, "说明").toEqual(y) 和 expect(x, "说明").toEqual(y) 查的是同一件事：先用便宜的办法判断，
// 只有确定通过（判断成立时 vitest 的 expect 一定也通过）才直接返回；判断不成立或拿不准，就原样交给 vitest 的 expect，
// 所以断言失败时的消息、diff、期望和实际值都和直接写 expect 一字不差（fast-check 的反例、练习模式的报告照旧），
// 报错的位置也指回写断言的那一行，不指到这里。
import { expect } from "vitest";

/** 判断成立就返回；不成立（或判断本身抛错）就让 vitest 的 expect 来判，它的错误的调用栈从 caller 的调用处算起。 */
function decide(quick: () => boolean, slow: () => void, caller: (...args: never[]) => unknown): void {
  try {
    if (quick()) return;
  } catch {
    // 判断时摸到会抛错的值（撤销的 Proxy、抛错的 getter）：交给 expect，它怎么处理就怎么处理
  }
  try {
    slow();
  } catch (error) {
    if (error instanceof Error) Error.captureStackTrace(error, caller);
    throw error;
  }
}

/**
 * 两个值是同样的普通数据：原始值（和函数）按 Object.is；数组逐项（不能有空位和别的键）；原型是 Object.prototype 或 null、
 * 没有 symbol 键和 getter 的对象逐键。成立时 toEqual 一定成立；反过来不一定（toEqual 不管值为 undefined 的键、
 * 不管原型，还认得 expect.any 这类匹配器），那些情形交给 expect。
 */
function samePlainData(a: unknown, b: unknown, depth = 0): boolean {
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return Object.is(a, b);
  if (depth > 64) return false; // 太深（或者成环）：交给 expect
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length || !plainArray(a) || !plainArray(b)) return false;
    for (let i = 0; i < a.length; i++) if (!samePlainData(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b) || !plainObject(a) || !plainObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key)) return false;
    if (!samePlainData((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

function plainArray(a: unknown[]): boolean {
  return Object.getPrototypeOf(a) === Array.prototype && Object.keys(a).length === a.length && Object.getOwnPropertySymbols(a).length === 0;
}

function plainObject(o: object): boolean {
  const proto = Object.getPrototypeOf(o);
  if (proto !== Object.prototype && proto !== null) return false;
  if (Object.getOwnPropertySymbols(o).length > 0) return false;
  for (const d of Object.values(Object.getOwnPropertyDescriptors(o))) if (!("value" in d)) return false;
  return true;
}

class FastExpect<T> {
  constructor(
    private readonly actual: T,
    private readonly message?: string,
  ) {}

  private slow() {
    return expect(this.actual, this.message);
  }

  toBe(expected: unknown): void {
    decide(() => Object.is(this.actual, expected), () => this.slow().toBe(expected), FastExpect.prototype.toBe);
  }

  toEqual(expected: unknown): void {
    decide(() => samePlainData(this.actual, expected), () => this.slow().toEqual(expected), FastExpect.prototype.toEqual);
  }

  toContain(item: unknown): void {
    decide(() => contains(this.actual, item), () => this.slow().toContain(item), FastExpect.prototype.toContain);
  }

  toMatch(pattern: RegExp | string): void {
    decide(() => matches(this.actual, pattern) === true, () => this.slow().toMatch(pattern), FastExpect.prototype.toMatch);
  }

  toHaveLength(length: number): void {
    decide(() => Array.isArray(this.actual) || typeof this.actual === "string" ? this.actual.length === length : false, () => this.slow().toHaveLength(length), FastExpect.prototype.toHaveLength);
  }

  toBeUndefined(): void {
    decide(() => this.actual === undefined, () => this.slow().toBeUndefined(), FastExpect.prototype.toBeUndefined);
  }

  toBeGreaterThan(n: number): void {
    decide(() => typeof this.actual === "number" && this.actual > n, () => this.slow().toBeGreaterThan(n), FastExpect.prototype.toBeGreaterThan);
  }

  toBeGreaterThanOrEqual(n: number): void {
    decide(() => typeof this.actual === "number" && this.actual >= n, () => this.slow().toBeGreaterThanOrEqual(n), FastExpect.prototype.toBeGreaterThanOrEqual);
  }

  toBeLessThanOrEqual(n: number): void {
    decide(() => typeof this.actual === "number" && this.actual <= n, () => this.slow().toBeLessThanOrEqual(n), FastExpect.prototype.toBeLessThanOrEqual);
  }

  /** 调一次那个函数，抛了就过；没抛就由 expect 报「应该抛错」（不再调第二次）。 */
  toThrow(): void {
    const fn = this.actual as () => unknown;
    let threw = false;
    try {
      fn();
    } catch {
      threw = true;
    }
    decide(() => threw, () => expect(() => undefined, this.message).toThrow(), FastExpect.prototype.toThrow);
  }

  get not(): FastExpectNot<T> {
    return new FastExpectNot(this.actual, this.message);
  }
}

class FastExpectNot<T> {
  constructor(
    private readonly actual: T,
    private readonly message?: string,
  ) {}

  private slow() {
    return expect(this.actual, this.message).not;
  }

  toContain(item: unknown): void {
    decide(() => notContains(this.actual, item), () => this.slow().toContain(item), FastExpectNot.prototype.toContain);
  }

  toMatch(pattern: RegExp | string): void {
    decide(() => matches(this.actual, pattern) === false, () => this.slow().toMatch(pattern), FastExpectNot.prototype.toMatch);
  }

  /** 调一次那个函数，没抛就过；抛了就由 expect 报它抛了什么（把同一个错误再抛给它看，不再调第二次）。 */
  toThrow(): void {
    const fn = this.actual as () => unknown;
    let thrown: { error: unknown } | undefined;
    try {
      fn();
    } catch (error) {
      thrown = { error };
    }
    decide(
      () => thrown === undefined,
      () =>
        expect(() => {
          throw thrown?.error;
        }, this.message).not.toThrow(),
      FastExpectNot.prototype.toThrow,
    );
  }
}

/** toContain 的便宜判断：字符串里有这段字符串，或数组里有 === 它的一项（chai 的 include 也是 indexOf）。 */
function contains(actual: unknown, item: unknown): boolean {
  if (typeof actual === "string") return typeof item === "string" && actual.includes(item);
  return Array.isArray(actual) && actual.indexOf(item) !== -1;
}

function notContains(actual: unknown, item: unknown): boolean {
  if (typeof actual === "string") return typeof item === "string" && !actual.includes(item);
  return Array.isArray(actual) && actual.indexOf(item) === -1;
}

/**
 * toMatch 的便宜判断：字符串对字符串就是包含；正则只认没有 g/y 标志的（test 不改 lastIndex）。
 * 拿不准（不是字符串、带 g/y 的正则）就交回 undefined，两个方向都交给 vitest 的 expect 去判。
 */
function matches(actual: unknown, pattern: RegExp | string): boolean | undefined {
  if (typeof actual !== "string") return undefined;
  if (typeof pattern === "string") return actual.includes(pattern);
  if (pattern.global || pattern.sticky) return undefined;
  return pattern.test(actual);
}

/** 和 vitest 的 expect(actual, message) 一样用，查的也是同一件事；只是通过时不惊动 vitest。 */
export function fastExpect<T>(actual: T, message?: string): FastExpect<T> {
  return new FastExpect(actual, message);
}

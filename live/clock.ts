// 一次请求的两只表：空闲超时和总时长上限。
// 空闲超时量的是「离上一个字节多久了」：模型稳定地往外吐字，再久也不该掐断；保活注释（": keep-alive"）也是字节，
// 同样算数。以前的总截止时间会把一段正常的长回答拦腰切断。总时长上限另设一个变量，默认不设。

/** 两只表的设置，毫秒。total 不设就不限总时长。 */
export type ClockLimits = { idleMs: number; totalMs?: number };

/** 哪只表响了，各配一句说清该调哪个变量的话。 */
export type ClockVariables = { idle: string; total: string };

/**
 * 表靠什么计时。平时就是全局的 setTimeout / clearTimeout；测试换成一只手拨的假表，
 * 「停了十分钟」「稳稳吐了好几倍超时那么久」都不用真等，机器再忙结果也一样。
 */
export type ClockTimers = {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

/** 真的时间。 */
export const REAL_TIMERS: ClockTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout> | undefined),
};

export class RequestClock {
  private readonly controller = new AbortController();
  private idleTimer: unknown;
  private readonly totalTimer: unknown;
  /** 表响了就是那句说明；没响是 undefined。 */
  expired: string | undefined;
  /** 交给 fetch 的信号：表响了或者外面喊停都会中止请求。 */
  readonly signal: AbortSignal;

  constructor(
    private readonly limits: ClockLimits,
    private readonly variables: ClockVariables,
    outside?: AbortSignal,
    private readonly timers: ClockTimers = REAL_TIMERS,
  ) {
    this.signal = outside === undefined ? this.controller.signal : AbortSignal.any([this.controller.signal, outside]);
    if (limits.totalMs !== undefined) {
      const total = limits.totalMs;
      this.totalTimer = timers.setTimeout(() => this.expire(`request took longer than ${total} ms in total (raise or unset ${variables.total})`), total);
    }
    this.touch();
  }

  /** 收到了东西（响应头、任何字节）：空闲表从头算。 */
  touch(): void {
    if (this.expired !== undefined) return;
    this.timers.clearTimeout(this.idleTimer);
    const idle = this.limits.idleMs;
    this.idleTimer = this.timers.setTimeout(() => this.expire(`request timed out: nothing arrived for ${idle} ms (raise ${this.variables.idle} for slow models)`), idle);
  }

  /** 请求结束：两只表都停。 */
  stop(): void {
    this.timers.clearTimeout(this.idleTimer);
    this.timers.clearTimeout(this.totalTimer);
  }

  private expire(reason: string): void {
    if (this.expired !== undefined) return;
    this.expired = reason;
    this.stop();
    this.controller.abort(new Error(reason));
  }
}

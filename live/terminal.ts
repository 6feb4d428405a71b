// 终端上边到边打：模型的文字一到就写到 stdout，不等这一轮结束。
//
// 课里的 core 不动：它照旧在一轮结束时把事件交给运行模式（s10）。这里做两件事：
//   1. AnswerStream 套在 provider 外面，事件原样往下交，text_delta 同时（打完码）写到终端；
//   2. 换掉 PrintMode：回答已经边到边打过了，一轮结束时不能再打第二遍，StreamedMode 什么都不打。
// 这一轮没能好好结束的原因（出错、问满次数）不是回答，由 runLive 写到 stderr；它用这里记下的「打了什么」
// 把错误那一行从消息里分出来。
import type { Provider, ProviderEvent, ProviderInput, RuntimeEvent, RuntimeMode, StopReason } from "../s12_packages/code.ts";
import { SecretMask } from "./redact.ts";

/** 往终端写文字：不自动换行。 */
export type TextWriter = { write(text: string): void };

/**
 * 把 provider 的文字片段边到边写到终端。每次 stream 是一段回答：开始时清零，结束时（正常收尾、出错、被丢下）
 * 把扣着的文字交出去，没以换行结尾就补一个，好让 stderr 上的工具进度另起一行。
 */
export class AnswerStream {
  /** 最近一段回答已经写到终端的文字（原文，没打码）。 */
  shown = "";
  /** 最近一段回答的 message_end 带的 stopReason；没收到 message_end（出错）是 undefined。 */
  lastStop: StopReason | undefined;

  constructor(
    private readonly out: TextWriter,
    private readonly secret: string | undefined,
  ) {}

  /** 套一层：事件一个不少、顺序不变，只是顺手把文字写出去。 */
  wrap(provider: Provider): Provider {
    return { stream: (input: ProviderInput) => this.tee(provider.stream(input)) };
  }

  private async *tee(events: AsyncIterable<ProviderEvent>): AsyncGenerator<ProviderEvent> {
    this.shown = "";
    this.lastStop = undefined;
    const mask = new SecretMask(this.secret);
    let last = "";
    const write = (text: string): void => {
      if (text === "") return;
      this.out.write(text);
      last = text;
    };
    try {
      for await (const event of events) {
        if (event.type === "text_delta") {
          this.shown += event.text;
          write(mask.push(event.text));
        } else if (event.type === "message_end") {
          this.lastStop = event.stopReason;
        }
        yield event;
      }
    } finally {
      write(mask.end());
      if (last !== "" && !last.endsWith("\n")) this.out.write("\n");
    }
  }
}

/** 边到边打过了，一轮结束时就不再打这一轮的回答。core 照旧把事件交过来（R7），只是这里没有要补打的。 */
export class StreamedMode implements RuntimeMode {
  render(_events: RuntimeEvent[]): void {}
}

// 服务器推送事件（server-sent events，text/event-stream）的增量解码器。
// 字节可以在任何地方被切开：一个 UTF-8 字符的中间、"data:" 的中间、\r 和 \n 之间，解码结果都一样。
// 规则照 WHATWG HTML 规范的 event stream 解析：行以 \r\n、\n 或 \r 结尾；空行派发一个事件；
// ":" 开头是注释；"字段: 值" 冒号后的一个空格不算值；同一事件的多行 data 用 \n 连起来。

/** 解出来的一个事件：event 默认是 "message"；data 是各行 data 用 \n 连起来的文字。 */
export type SseMessage = { event: string; data: string };

/** 一个事件（或一行）最多攒这么多字符还没结束，就当对方坏了，不再无限攒下去。 */
export const MAX_SSE_EVENT_CHARS = 4 * 1024 * 1024;

export class SseDecoder {
  private readonly decoder = new TextDecoder("utf-8");
  private buffer = "";
  private skipLineFeed = false;
  private data: string[] = [];
  private event = "";

  /** 喂进一段字节，交出这段字节里完整结束的事件。 */
  push(bytes: Uint8Array): SseMessage[] {
    return this.feed(this.decoder.decode(bytes, { stream: true }));
  }

  /**
   * 字节流结束。还没写完的半行丢掉（连接是在一行中间断的）。规范说没以空行收尾的事件也该丢；
   * 这里放宽一点：若最后一行已经完整、只差那个空行，就照常派发，有的服务器最后一个事件不写空行。
   */
  end(): SseMessage[] {
    const messages = this.feed(this.decoder.decode());
    const cutMidLine = this.buffer.length > 0;
    this.buffer = "";
    const last = cutMidLine ? undefined : this.line("");
    this.data = [];
    this.event = "";
    return last === undefined ? messages : [...messages, last];
  }

  private feed(text: string): SseMessage[] {
    const messages: SseMessage[] = [];
    this.buffer += text;
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const ch = this.buffer.charCodeAt(i);
      if (this.skipLineFeed) {
        this.skipLineFeed = false;
        if (ch === 0x0a) {
          start = i + 1;
          continue;
        }
      }
      if (ch !== 0x0a && ch !== 0x0d) continue;
      const message = this.line(this.buffer.slice(start, i));
      if (message !== undefined) messages.push(message);
      this.skipLineFeed = ch === 0x0d;
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    const pending = this.buffer.length + this.data.reduce((n, d) => n + d.length, 0);
    if (pending > MAX_SSE_EVENT_CHARS) {
      throw new Error(`malformed stream: an event grew past ${MAX_SSE_EVENT_CHARS} characters without ending`);
    }
    return messages;
  }

  private line(line: string): SseMessage | undefined {
    if (line === "") {
      const message = this.data.length > 0 ? { event: this.event || "message", data: this.data.join("\n") } : undefined;
      this.data = [];
      this.event = "";
      return message;
    }
    if (line.startsWith(":")) return undefined; // 注释，常用来保活
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "data":
        this.data.push(value);
        break;
      case "event":
        this.event = value;
        break;
      case "error":
        // 不在规范里：llama.cpp 的服务器出错时写 "error: {…}"。当成一个名为 error 的事件。
        this.event = "error";
        this.data.push(value);
        break;
      default:
        break; // id、retry 和不认识的字段：规范要求忽略
    }
    return undefined;
  }
}

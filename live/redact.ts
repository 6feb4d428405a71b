// 密钥打码：凡是可能写到 stdout / stderr 的文字，先打码，再截短。
//
// 顺序是关键：先截短再打码，一把跨在截断处的密钥就只剩前半截，整串匹配认不出它，前半截原样漏出去。
// 所以这里两条规矩：
//   1. 整串密钥换成 ***；
//   2. 密钥的「开头一截」只要有 MIN_FRAGMENT 个字符以上，也换成 ***。我们自己只会从尾部截文字，
//      截出来的残片只可能是密钥的开头；服务器那边截断回显（错误页里半截 Authorization 头）也是这样。
// 结尾或中间的残片不管：我们的截短从不切掉文字的开头；OpenAI 式的回显只露最后 4 位，短于 MIN_FRAGMENT。
//
// 为什么是 6：短于 6 的开头残片，对常见的密钥（sk-、sk-proj-、sk-or-v1- 开头）只是公开的前缀，
// 最多带出两三个随机字符；再小就会把正文里每个「sk-」都打掉。代价是回答里恰好写出密钥的前 6 个字符时也会被打码，
// 这是宁可错打的一边。

/** 密钥开头的残片至少这么长就打码。 */
export const MIN_FRAGMENT = 6;

/** 打码后的替身。 */
export const MASK = "***";

/**
 * 流式打码器：文字一段段进来（比如模型的回答，密钥可能被切在两段之间），打完码一段段出去。
 * 还拿不准的尾巴（正好是密钥的开头，后面可能还有）先扣着，等下一段或 end() 再定。
 * 任意切法下，push 和 end 的输出连起来，都等于整段一次打码的结果。
 */
export class SecretMask {
  private pending = "";

  constructor(
    private readonly secret: string | undefined,
    private readonly minFragment: number = MIN_FRAGMENT,
  ) {}

  /** 收一段文字，交出已经能确定的部分（已打码）。 */
  push(text: string): string {
    if (this.secret === undefined || this.secret === "") return text;
    this.pending += text;
    return this.drain(false);
  }

  /** 文字到头了：扣着的尾巴也定下来交出去。 */
  end(): string {
    if (this.secret === undefined || this.secret === "") return "";
    return this.drain(true);
  }

  private drain(final: boolean): string {
    const secret = this.secret ?? "";
    const text = this.pending;
    // 每个位置往后能对上密钥开头几个字符；对到文字末尾还没断的，要等后文才知道（final 时除外）
    const marks: Array<[number, number]> = [];
    let undecided = text.length;
    for (let i = 0; i < text.length; i++) {
      let matched = 0;
      while (matched < secret.length && i + matched < text.length && text[i + matched] === secret[matched]) matched++;
      const decided = matched === secret.length || i + matched < text.length || final;
      if (!decided) {
        undecided = i;
        break;
      }
      if (matched === secret.length || matched >= this.minFragment) marks.push([i, i + matched]);
    }
    // 一段要打码的范围跨过了 undecided，就从它的起点开始一起扣着，免得一个 *** 被拆成两次写出
    let safe = undecided;
    for (let changed = true; changed; ) {
      changed = false;
      for (const [start, end] of marks) {
        if (start < safe && end > safe) {
          safe = start;
          changed = true;
        }
      }
    }
    this.pending = text.slice(safe);
    return render(text.slice(0, safe), marks.filter(([, end]) => end <= safe));
  }
}

/** 把标出的范围换成 ***：互相重叠的合成一个，首尾相接的各算各的（和流式切开时一致）。 */
function render(text: string, marks: Array<[number, number]>): string {
  let out = "";
  let at = 0;
  let i = 0;
  while (i < marks.length) {
    const start = marks[i][0];
    let end = marks[i][1];
    i++;
    while (i < marks.length && marks[i][0] < end) end = Math.max(end, marks[i++][1]);
    out += text.slice(at, start) + MASK;
    at = end;
  }
  return out + text.slice(at);
}

/** 一段完整的文字打码。没有密钥时原样返回。 */
export function maskSecret(text: string, secret: string | undefined): string {
  const mask = new SecretMask(secret);
  return mask.push(text) + mask.end();
}

/** 按字符（不是 UTF-16 单元）截短，截了就补一个 …。调用方负责先打码。 */
export function shorten(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join("")}…` : text;
}

/** 先打码再截短：所有要截短后给人看的文字都走这里。 */
export function maskThenShorten(text: string, secret: string | undefined, max: number): string {
  return shorten(maskSecret(text, secret), max);
}

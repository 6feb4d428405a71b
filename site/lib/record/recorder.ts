// 记录器：一边跑演示一边记下每一步。说什么由 narration.ts 的表决定，这里只管记账：第几段演示、第几次请求、
// 连续的 text_delta 并进同一步、装扩展或装包期间登记的工具并进那一步、场景布景时登记的工具不算一步。
import type { Event, Input, Msg } from "../../../tooling/lesson.ts";
import type { ReplayStep } from "../replay-types.ts";
import { NARRATION, type StepInput } from "./narration.ts";

export class Recorder {
  readonly steps: ReplayStep[] = [];
  run = -1;
  /** 这段演示里 provider 被请求的次数。 */
  private requests = 0;
  /** 这一轮（一次 runOneTurn / runEventedToolLoop）里的请求次数。 */
  private turnRequests = 0;
  /** 正在收文字的那一步（连续的 text_delta 并成一步）。 */
  private openStream: ReplayStep | undefined;
  /** use() / 装包期间登记的工具，并进那一步，不单列。 */
  private groups: string[][] = [];
  /** makeAgent 先登记场景的工具（场景的布景），这之后的登记才算演示里的一步。 */
  private setupRegistrations = 0;

  constructor(readonly lesson: string) {}

  startRun(setupRegistrations: number): void {
    this.run++;
    this.requests = 0;
    this.setupRegistrations = setupRegistrations;
    this.groups = [];
  }

  add(step: StepInput): ReplayStep {
    const full: ReplayStep = { ...step, run: this.run };
    this.steps.push(full);
    this.openStream = undefined;
    return full;
  }

  /** Output 写出的一行，挂在最近的一步下面。 */
  output(line: string): void {
    const last = this.steps.at(-1);
    if (last === undefined) return;
    (last.output ??= []).push(line);
  }

  request(input: Input, how: "complete" | "stream"): void {
    this.requests++;
    this.turnRequests++;
    this.add(NARRATION.provider.request(this.lesson, input, how, this.requests, this.turnRequests));
  }

  /** 流里的一个事件；message_start 之后的 text_delta 并进那一步。 */
  event(event: Event): void {
    const { stream } = NARRATION;
    if (event.type === "message_start") {
      this.add(stream.start());
      this.openStream = this.steps.at(-1);
    } else if (event.type === "text_delta") {
      const open = this.openStream;
      if (open === undefined) {
        this.add(stream.delta(event.text));
        this.openStream = this.steps.at(-1);
        return;
      }
      open.detail = `${open.detail ?? ""}${stream.deltaLine(event.text)}`;
      Object.assign(open, stream.merged((open.detail.match(/\ntext_delta /g) ?? []).length));
    } else if (event.type === "tool_call") this.add(stream.toolCall(event.call));
    else this.add(stream.end(event.stopReason));
  }

  /** 登记一个工具：装扩展、装包期间的并进那一步，布景时的不算，其余各记一步。 */
  register(name: string, error: unknown): void {
    const group = this.groups.at(-1);
    if (group !== undefined && error === undefined) {
      group.push(name);
      return;
    }
    if (this.setupRegistrations > 0) {
      this.setupRegistrations--;
      return;
    }
    this.add(NARRATION.tools.register(name, error));
  }

  /** 存下一条消息（数组的 push，或会话树的 append）；用户消息开始新的一轮。 */
  stored(msg: Msg, entry: { id: string; parentId: string | null } | undefined): void {
    if (msg.role === "user") this.turnRequests = 0;
    this.add(NARRATION.history.stored(msg, entry));
  }

  beginGroup(): void {
    this.groups.push([]);
  }

  endGroup(): string[] {
    return this.groups.pop() ?? [];
  }
}

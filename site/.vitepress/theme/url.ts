// 页面状态写在网址的查询串里（?tab=diff&view=split&step=12）：可以发给别人，后退回来也还在。
// 用 replaceState 改当前这条历史记录，不为每一步新添一条（不然「后退」要按几十下）；VitePress 存在 history.state 里的滚动位置原样留着。

export function getParam(name: string): string | undefined {
  return new URLSearchParams(location.search).get(name) ?? undefined;
}

/** value 为 undefined 时去掉这个参数。 */
export function setParam(name: string, value: string | undefined): void {
  const url = new URL(location.href);
  if (value === undefined) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  if (url.href !== location.href) history.replaceState(history.state, "", url);
}

/** A min-heap of timed events: earliest first, and in the order they were scheduled when at the same time. */
export class EventQueue<E extends { at: number }> {
  private heap: { event: E; seq: number }[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  push(event: E): void {
    const heap = this.heap;
    heap.push({ event, seq: this.seq++ });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  pop(): E | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (!top || !last) return undefined;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < heap.length && this.before(heap[left]!, heap[least]!)) least = left;
        if (right < heap.length && this.before(heap[right]!, heap[least]!)) least = right;
        if (least === i) break;
        [heap[i], heap[least]] = [heap[least]!, heap[i]!];
        i = least;
      }
    }
    return top.event;
  }

  private before(a: { event: E; seq: number }, b: { event: E; seq: number }): boolean {
    return a.event.at < b.event.at || (a.event.at === b.event.at && a.seq < b.seq);
  }
}

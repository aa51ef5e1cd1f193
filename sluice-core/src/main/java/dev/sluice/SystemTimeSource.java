/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The system clocks and one daemon timer thread shared by every limiter in the JVM. The thread
 * exists only while some task is scheduled: it starts with the first one and ends shortly after the
 * last one ran or was cancelled, so a JVM whose limiters are all closed keeps no Sluice thread (a
 * host such as Maven's {@code exec:java} waits for every thread, daemon or not, before it exits).
 *
 * <p>The timer is a heap of tasks by due time rather than a {@code ScheduledThreadPoolExecutor}: a
 * managed call arms a timer and cancels it long before it is due, so scheduling costs one object
 * and no clock reading when the due time is known ({@link #scheduleAtNanos}), and the thread is
 * woken only when a task is due earlier than it would wake anyway, or when the last task is
 * cancelled while it waits for a far one (so that it can end). It may wake once at the time of a
 * cancelled task, and then waits for the next one: every time it wakes at was a real deadline or
 * the end of its linger.
 *
 * <p>Thread-safe. {@link #schedule} never blocks beyond a short critical section.
 */
final class SystemTimeSource implements TimeSource {
  static final SystemTimeSource INSTANCE = new SystemTimeSource();

  /**
   * How long the thread outlives its last task. A pool moves its deadline by cancelling one timer
   * and scheduling the next: without this grace each move would end one thread and start another.
   */
  private static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  /** The longest delay kept: far beyond any setting (ten years), far from overflow. */
  private static final long LONGEST_NANOS = Long.MAX_VALUE / 4;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();

  // Guarded by lock.
  private Task[] heap = new Task[16];
  private int size;
  private long sequence;

  /** The timer thread, or {@code null} while none runs. Guarded by lock. */
  private Thread thread;

  /** Whether the thread waits on {@link #changed}; else it runs or looks at the heap. */
  private boolean waiting;

  /** While it waits, when the thread wakes by itself: its head task's time or its linger's end. */
  private long wakeAt;

  /** Whether the thread waits out its linger (nothing was scheduled when it began). */
  private boolean lingering;

  /** Counts schedules: a linger during which something was scheduled lingers again. */
  private long activity;

  /**
   * How long the two clocks' last comparison stands for {@link #wallMillisAt}: a step of the wall
   * clock shows in derived times at most this late. Both clocks follow the same frequency
   * corrections, so between steps they drift apart by nothing measurable.
   */
  private static final long ANCHOR_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** The last comparison of the two clocks; replaced whole, never changed. */
  private volatile Anchor anchor = Anchor.now();

  private SystemTimeSource() {}

  @Override
  public long wallMillis() {
    return System.currentTimeMillis();
  }

  /**
   * The wall time derived from the monotonic reading and the last comparison of the two clocks,
   * compared again once it is a second old; it lags the wall clock by about a millisecond at most:
   * one clock reading serves a caller's local deadline and a store's time (a reading costs tens of
   * nanoseconds on a virtual machine).
   */
  @Override
  public long wallMillisAt(long monotonicNanos) {
    Anchor a = anchor;
    if (monotonicNanos - a.comparedAtNanos > ANCHOR_NANOS) {
      a = Anchor.now();
      anchor = a;
    }
    return Math.floorDiv(monotonicNanos + a.offsetNanos, 1_000_000L);
  }

  /** The wall clock minus the monotonic clock, in nanoseconds, as compared at one moment. */
  private record Anchor(long offsetNanos, long comparedAtNanos) {
    /** How close together the two clocks must be read for a comparison to stand. */
    private static final long CLOSE_NANOS = 50_000;

    /**
     * Reads the wall clock between two monotonic readings and pairs it with the later one, so a
     * derived time never leads a reading of the wall clock taken after it (a store that mixes the
     * two never goes back in time): it lags by the part of the millisecond the wall clock hid, and
     * by the time between the readings, which a preemption could stretch, so a comparison whose
     * readings lie far apart is taken again.
     */
    static Anchor now() {
      long before;
      long wallNanos;
      long after;
      int tries = 0;
      do {
        before = System.nanoTime();
        wallNanos = System.currentTimeMillis() * 1_000_000L;
        after = System.nanoTime();
      } while (after - before > CLOSE_NANOS && ++tries < 3);
      return new Anchor(wallNanos - after, after);
    }
  }

  @Override
  public long monotonicNanos() {
    return System.nanoTime();
  }

  @Override
  public Timer schedule(Runnable task, long delayNanos) {
    long now = System.nanoTime();
    return scheduleAtNanos(task, now + Math.min(Math.max(0, delayNanos), LONGEST_NANOS), now);
  }

  @Override
  public Timer scheduleAtNanos(Runnable task, long atNanos) {
    return scheduleAtNanos(task, atNanos, atNanos);
  }

  /**
   * Schedules {@code task} at {@code atNanos}; {@code nowNanos} is a reading no later than now, or
   * {@code atNanos} itself, only used to keep a far due time from overflowing.
   */
  private Timer scheduleAtNanos(Runnable task, long atNanos, long nowNanos) {
    if (atNanos - nowNanos > LONGEST_NANOS) {
      atNanos = nowNanos + LONGEST_NANOS;
    }
    Task t = new Task(this, task, atNanos);
    lock.lock();
    try {
      t.sequence = sequence++;
      offer(t);
      activity++;
      if (thread == null) {
        start();
      } else if (waiting && atNanos - wakeAt < 0) {
        // Due before the thread would wake by itself.
        changed.signal();
      }
    } finally {
      lock.unlock();
    }
    return t;
  }

  private void start() {
    Thread t = new Thread(this::loop, "sluice-timer");
    t.setDaemon(true);
    // Until it waits, a task scheduled meanwhile needs no signal: the thread looks at the heap
    // before it waits.
    waiting = false;
    lingering = false;
    thread = t;
    t.start();
  }

  /** The timer thread: runs due tasks, waits for the next one, ends after its linger. */
  private void loop() {
    lock.lock();
    try {
      long lingerActivity = 0;
      while (true) {
        long now = System.nanoTime();
        if (size == 0) {
          if (!lingering) {
            lingering = true;
            lingerActivity = activity;
            wakeAt = now + LINGER_NANOS;
          } else if (wakeAt - now <= 0) {
            if (activity == lingerActivity) {
              thread = null;
              return;
            }
            // Something was scheduled (and ended) meanwhile: linger from now.
            lingerActivity = activity;
            wakeAt = now + LINGER_NANOS;
          }
          await(wakeAt - now);
          continue;
        }
        lingering = false;
        Task head = heap[0];
        if (head.atNanos - now > 0) {
          wakeAt = head.atNanos;
          await(head.atNanos - now);
          continue;
        }
        poll();
        lock.unlock();
        try {
          head.fire();
        } finally {
          lock.lock();
        }
      }
    } catch (InterruptedException e) {
      // Nothing interrupts this thread; if something does, another takes over.
      thread = null;
      if (size > 0) {
        start();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Waits until {@link #wakeAt}, a signal or a spurious wake; under the lock. */
  private void await(long nanos) throws InterruptedException {
    waiting = true;
    try {
      changed.awaitNanos(nanos);
    } finally {
      waiting = false;
    }
  }

  /** Takes a cancelled task out of the heap; a thread waiting for a far one may then end. */
  private void remove(Task t) {
    lock.lock();
    try {
      int i = t.index;
      if (i < 0) {
        return;
      }
      removeAt(i);
      if (size == 0 && waiting && !lingering) {
        changed.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  // ---- the heap, ordered by due time then sequence; each task knows its index

  private void offer(Task t) {
    if (size == heap.length) {
      heap = Arrays.copyOf(heap, size * 2);
    }
    siftUp(size++, t);
  }

  private void poll() {
    Task head = heap[0];
    head.index = -1;
    Task last = heap[--size];
    heap[size] = null;
    if (size > 0) {
      siftDown(0, last);
    }
  }

  private void removeAt(int i) {
    heap[i].index = -1;
    Task last = heap[--size];
    heap[size] = null;
    if (i < size) {
      siftDown(i, last);
      if (heap[i] == last) {
        siftUp(i, last);
      }
    }
  }

  private void siftUp(int i, Task t) {
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      Task p = heap[parent];
      if (!t.before(p)) {
        break;
      }
      heap[i] = p;
      p.index = i;
      i = parent;
    }
    heap[i] = t;
    t.index = i;
  }

  private void siftDown(int i, Task t) {
    int half = size >>> 1;
    while (i < half) {
      int child = 2 * i + 1;
      Task c = heap[child];
      int right = child + 1;
      if (right < size && heap[right].before(c)) {
        child = right;
        c = heap[child];
      }
      if (!c.before(t)) {
        break;
      }
      heap[i] = c;
      c.index = i;
      i = child;
    }
    heap[i] = t;
    t.index = i;
  }

  @Override
  public String toString() {
    return "TimeSource.system()";
  }

  /** A scheduled task and its handle: runs at most once, never after a cancel that came first. */
  private static final class Task implements Timer {
    private static final VarHandle STATE;

    static {
      try {
        STATE = MethodHandles.lookup().findVarHandle(Task.class, "state", int.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    private static final int PENDING = 0;
    private static final int RUN = 1;
    private static final int CANCELLED = 2;

    private final SystemTimeSource owner;
    private final Runnable task;
    private final long atNanos;

    // Guarded by the owner's lock.
    private long sequence;
    private int index = -1;

    private volatile int state;

    Task(SystemTimeSource owner, Runnable task, long atNanos) {
      this.owner = owner;
      this.task = task;
      this.atNanos = atNanos;
    }

    boolean before(Task o) {
      long d = atNanos - o.atNanos;
      return d < 0 || (d == 0 && sequence < o.sequence);
    }

    /** Runs the task unless it was cancelled first; on the timer thread, out of the heap. */
    void fire() {
      if (STATE.compareAndSet(this, PENDING, RUN)) {
        try {
          task.run();
        } catch (RuntimeException | Error e) {
          // As a scheduled executor keeps a task's failure in its future, which nobody reads:
          // one failing task must not end the thread the others wait on.
        }
      }
    }

    @Override
    public void cancel() {
      if (STATE.compareAndSet(this, PENDING, CANCELLED)) {
        owner.remove(this);
      }
    }
  }
}

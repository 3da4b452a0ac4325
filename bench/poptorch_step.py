"""Host time of one PopTorch training step of the basics tutorial's CNN (batch 16) beside plain
torch on the CPU doing the same step in the same run (the ratio), the compile time once, and the
simulated IPU cycles of a step. Run after `source <sdk>/enable.sh`:
    python3 bench/poptorch_step.py [--steps 30] [--small-ipu]"""
import argparse
import os
import statistics
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tutorials", "poptorch"))


def timed_steps(step, steps):
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--small-ipu", action="store_true", help="the 256-tile IPU model")
    args = parser.parse_args()
    if args.small_ipu:
        os.environ["POPTORCH_SMALL_IPU_MODEL"] = "1"
    import poptorch
    from basics import ClassificationModel

    torch.manual_seed(0)
    x = torch.randn(args.batch, 1, 28, 28)
    y = torch.randint(0, 10, (args.batch,))

    model = ClassificationModel()
    cpu_model = ClassificationModel()
    cpu_model.load_state_dict(model.state_dict())
    opts = poptorch.Options().logCycleCount(True)
    training = poptorch.trainingModel(model, opts, poptorch.optim.SGD(model.parameters(), lr=0.01,
                                                                      momentum=0.9))
    start = time.perf_counter()
    training(x, y)
    first_call = time.perf_counter() - start
    ipu_median, ipu_min = timed_steps(lambda: training(x, y), args.steps)
    cycles = training.cycleCount()

    cpu_opt = torch.optim.SGD(cpu_model.parameters(), lr=0.01, momentum=0.9)

    def cpu_step():
        cpu_opt.zero_grad()
        cpu_model(x, y)[1].backward()
        cpu_opt.step()

    cpu_step()
    cpu_median, cpu_min = timed_steps(cpu_step, args.steps)
    device = "256-tile" if args.small_ipu else "ipu2 (1472 tiles)"
    print(f"device                  {device}, torch threads {torch.get_num_threads()}")
    print(f"compile (first call)    {first_call:.2f} s (trace, lower, compile: "
          f"{training.compilationTime().total_seconds():.2f} s)")
    print(f"IPU step, host time     median {ipu_median * 1e3:.1f} ms, min {ipu_min * 1e3:.1f} ms")
    print(f"torch CPU step          median {cpu_median * 1e3:.2f} ms, min {cpu_min * 1e3:.2f} ms")
    print(f"ratio (IPU / CPU)       {ipu_median / cpu_median:.1f}x")
    print(f"simulated cycles/step   {cycles:,} ({cycles / 1.33e9 * 1e3:.3f} ms at 1.33 GHz)")


if __name__ == "__main__":
    main()

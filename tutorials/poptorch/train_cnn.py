"""A CNN trained on Fashion-MNIST with many steps per device call: deviceIterations(50) with
OutputMode.All returns the loss of every iteration. The same model, initial weights, batches and
optimizer trained by plain torch on the CPU give the reference accuracy (--compare-cpu)."""
import argparse
import copy
import time

import torch
import torch.nn as nn
import torchvision

import poptorch
from fashion_data import fashion_mnist


class Network(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AvgPool2d(2), nn.Dropout(0.1))
        self.classifier = nn.Linear(32 * 7 * 7, 10)
        self.loss = nn.CrossEntropyLoss()

    def forward(self, x, labels=None):
        logits = self.classifier(torch.flatten(self.features(x), 1))
        if labels is None:
            return logits
        return logits, self.loss(logits, labels)


def evaluate(predict, loader):
    correct = total = 0
    for data, labels in loader:
        correct += int((predict(data).argmax(1) == labels).sum())
        total += len(labels)
    return 100.0 * correct / total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--train-images", type=int, default=6000)
    parser.add_argument("--test-images", type=int, default=1000)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--device-iterations", type=int, default=50)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--compare-cpu", action="store_true")
    parser.add_argument("--data", default="datasets")
    args = parser.parse_args()
    torch.manual_seed(42)
    transform = torchvision.transforms.Compose([
        torchvision.transforms.ToTensor(), torchvision.transforms.Normalize((0.286,), (0.353,))])
    train_set = fashion_mnist(args.data, True, transform, args.train_images)
    test_set = fashion_mnist(args.data, False, transform, args.test_images)

    model = Network()
    cpu_model = copy.deepcopy(model)
    opts = poptorch.Options().deviceIterations(args.device_iterations)
    opts.outputMode(poptorch.OutputMode.All)
    loader = poptorch.DataLoader(opts, train_set, batch_size=args.batch_size, shuffle=True)
    optimizer = poptorch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    training = poptorch.trainingModel(model, opts, optimizer)

    batches = []
    start = time.time()
    for epoch in range(args.epochs):
        for data, labels in loader:
            batches.append((data, labels))
            _, losses = training(data, labels)
        print(f"Epoch {epoch + 1}: {len(losses)} losses per call, last {float(losses[-1]):.4f} "
              f"({time.time() - start:.1f} s)", flush=True)
    training.detachFromDevice()

    test_loader = torch.utils.data.DataLoader(test_set, batch_size=100)
    model.eval()
    inference = poptorch.inferenceModel(model, poptorch.Options())
    print(f"IPU test accuracy: {evaluate(inference, test_loader):.2f}%")

    if args.compare_cpu:
        cpu_opt = torch.optim.SGD(cpu_model.parameters(), lr=args.lr, momentum=0.9)
        cpu_model.train()
        for data, labels in batches:  # the same batches, one step per micro-batch
            for x, y in zip(data.split(args.batch_size), labels.split(args.batch_size)):
                cpu_opt.zero_grad()
                cpu_model(x, y)[1].backward()
                cpu_opt.step()
        cpu_model.eval()
        with torch.no_grad():
            print(f"CPU test accuracy: {evaluate(cpu_model, test_loader):.2f}%")


if __name__ == "__main__":
    main()

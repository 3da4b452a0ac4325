"""A CNN trained on Fashion-MNIST with many steps per device call: deviceIterations(50) with
OutputMode.All returns the loss of every iteration."""
import argparse
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


TRANSFORM = torchvision.transforms.Compose([
    torchvision.transforms.ToTensor(), torchvision.transforms.Normalize((0.286,), (0.353,))])
SEED = 42


def arguments():
    parser = argparse.ArgumentParser()
    parser.add_argument("--train-images", type=int, default=6000)
    parser.add_argument("--test-images", type=int, default=1000)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--device-iterations", type=int, default=50)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--data", default="datasets")
    return parser


def make_optimizer(params, args):
    return poptorch.optim.SGD(params, lr=args.lr, momentum=0.9)


def evaluate(predict, loader):
    correct = total = 0
    for data, labels in loader:
        correct += int((predict(data).argmax(1) == labels).sum())
        total += len(labels)
    return 100.0 * correct / total


def main():
    args = arguments().parse_args()
    torch.manual_seed(SEED)
    train_set = fashion_mnist(args.data, True, TRANSFORM, args.train_images)
    test_set = fashion_mnist(args.data, False, TRANSFORM, args.test_images)

    model = Network()
    opts = poptorch.Options().deviceIterations(args.device_iterations)
    opts.outputMode(poptorch.OutputMode.All)
    loader = poptorch.DataLoader(opts, train_set, batch_size=args.batch_size, shuffle=True)
    training = poptorch.trainingModel(model, opts, make_optimizer(model.parameters(), args))

    start = time.time()
    for epoch in range(args.epochs):
        for data, labels in loader:
            _, losses = training(data, labels)
        print(f"Epoch {epoch + 1}: {len(losses)} losses per call, last {float(losses[-1]):.4f} "
              f"({time.time() - start:.1f} s)", flush=True)
    training.detachFromDevice()

    test_loader = torch.utils.data.DataLoader(test_set, batch_size=100)
    model.eval()
    inference = poptorch.inferenceModel(model, poptorch.Options())
    print(f"IPU test accuracy: {evaluate(inference, test_loader):.2f}%")


if __name__ == "__main__":
    main()

"""PopTorch basics on Fashion-MNIST: a small CNN with group norm trained with SGD momentum by a
training model, saved, reloaded into an inference model that measures the test accuracy, and one
image predicted on the IPU and by plain torch on the CPU."""
import argparse
import time

import torch
import torch.nn as nn
import torchvision

import poptorch
from fashion_data import fashion_mnist

CLASSES = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker",
           "Bag", "Ankle boot"]


class ClassificationModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 5, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(5, 12, 5)
        self.norm = nn.GroupNorm(3, 12)
        self.fc1 = nn.Linear(972, 100)
        self.relu = nn.ReLU()
        self.fc2 = nn.Linear(100, 10)
        self.log_softmax = nn.LogSoftmax(dim=1)
        self.loss = nn.NLLLoss()

    def forward(self, x, labels=None):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.norm(self.relu(self.conv2(x)))
        x = torch.flatten(x, start_dim=1)
        x = self.relu(self.fc1(x))
        x = self.log_softmax(self.fc2(x))
        if self.training:
            return x, self.loss(x, labels)
        return x


TRANSFORM = torchvision.transforms.Compose([
    torchvision.transforms.ToTensor(), torchvision.transforms.Normalize((0.5,), (0.5,))])
SEED = 0


def arguments():
    parser = argparse.ArgumentParser()
    parser.add_argument("--train-images", type=int, default=6000)
    parser.add_argument("--test-images", type=int, default=1000)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--data", default="datasets")
    return parser


def make_optimizer(params, args):
    return poptorch.optim.SGD(params, lr=args.lr, momentum=0.9)


def accuracy(predictions, labels):
    return 100.0 * (predictions == labels).float().mean().item()


def main():
    args = arguments().parse_args()
    torch.manual_seed(SEED)
    train_dataset = fashion_mnist(args.data, True, TRANSFORM, args.train_images)
    test_dataset = fashion_mnist(args.data, False, TRANSFORM, args.test_images)

    model = ClassificationModel()
    model.train()
    opts = poptorch.Options()
    train_loader = poptorch.DataLoader(opts, train_dataset, batch_size=args.batch_size,
                                       shuffle=True)
    optimizer = make_optimizer(model.parameters(), args)
    training_model = poptorch.trainingModel(model, options=opts, optimizer=optimizer)

    start = time.time()
    for epoch in range(args.epochs):
        total_loss = 0.0
        for data, labels in train_loader:
            _, loss = training_model(data, labels)
            total_loss += float(loss)
        print(f"Epoch {epoch + 1}: mean loss {total_loss / len(train_loader):.4f} "
              f"({time.time() - start:.1f} s, compiled in "
              f"{training_model.compilationTime().total_seconds():.1f} s)",
              flush=True)
    training_model.detachFromDevice()
    torch.save(model.state_dict(), "classifier.pth")

    # A fresh module from the saved weights, evaluated by an inference model.
    model = ClassificationModel()
    model.load_state_dict(torch.load("classifier.pth"))
    model.eval()
    inference_model = poptorch.inferenceModel(model, options=poptorch.Options())
    test_loader = poptorch.DataLoader(poptorch.Options(), test_dataset, batch_size=32)
    predictions, labels = [], []
    for data, label in test_loader:
        predictions.append(inference_model(data).argmax(dim=1))
        labels.append(label)
    inference_model.detachFromDevice()
    print(f"Eval accuracy: {accuracy(torch.cat(predictions), torch.cat(labels)):.2f}%")

    # One image on the IPU and on the CPU.
    image, label = test_dataset[0]
    single = poptorch.inferenceModel(model)
    ipu_out = single(image.unsqueeze(0))
    cpu_out = model(image.unsqueeze(0))
    print(f"Image 0 ({CLASSES[label]}): IPU predicts {CLASSES[int(ipu_out.argmax())]}, "
          f"CPU predicts {CLASSES[int(cpu_out.argmax())]}, largest difference "
          f"{(ipu_out - cpu_out).abs().max().item():.2e}")


if __name__ == "__main__":
    main()

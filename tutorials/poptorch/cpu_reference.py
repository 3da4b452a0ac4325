"""The accuracy plain torch reaches on the CPU with one of these programs' models, data,
hyper-parameters and seed: what the IPU run is compared with.
Usage: cpu_reference.py basics|train_cnn [the program's own flags]"""
import importlib
import sys

import torch

from fashion_data import fashion_mnist


def main():
    program = importlib.import_module(sys.argv[1])
    args = program.arguments().parse_args(sys.argv[2:])
    torch.manual_seed(program.SEED)
    train_set = fashion_mnist(args.data, True, program.TRANSFORM, args.train_images)
    test_set = fashion_mnist(args.data, False, program.TRANSFORM, args.test_images)
    model = program.ClassificationModel() if hasattr(program, "ClassificationModel") \
        else program.Network()
    optimizer = program.make_optimizer(model.parameters(), args)
    loader = torch.utils.data.DataLoader(train_set, batch_size=args.batch_size, shuffle=True,
                                         drop_last=True)
    model.train()
    for _ in range(args.epochs):
        for data, labels in loader:
            optimizer.zero_grad()
            model(data, labels)[1].backward()
            optimizer.step()
    model.eval()
    correct = 0
    with torch.no_grad():
        for data, labels in torch.utils.data.DataLoader(test_set, batch_size=100):
            correct += int((model(data).argmax(1) == labels).sum())
    print(f"CPU test accuracy: {100.0 * correct / len(test_set):.2f}%")


if __name__ == "__main__":
    main()

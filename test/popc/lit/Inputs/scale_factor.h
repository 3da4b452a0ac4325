// A local header for dependency_file.cpp: popc -MD must list it.
#pragma once
constexpr float kScaleFactor = 2.0f;

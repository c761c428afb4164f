// A generated flat grid: the fine-tessellation case of a level (a floor exported as millions of
// small quads), whose footprint is still one square.
#include "scenes.h"

namespace clearway::scenes {

Scene flatGrid(int cells, double cell_size) {
    Scene scene;
    scene.name = "grid-" + std::to_string(cells);
    const double side = cells * cell_size;
    scene.positions.reserve(size_t(cells + 1) * size_t(cells + 1));
    for (int j = 0; j <= cells; ++j)
        for (int i = 0; i <= cells; ++i)
            scene.positions.push_back({double(float(i * cell_size)), 0.0, double(float(-j * cell_size))});
    scene.indices.reserve(size_t(cells) * size_t(cells) * 6);
    for (int j = 0; j < cells; ++j)
        for (int i = 0; i < cells; ++i) {
            const uint32_t a = uint32_t(j * (cells + 1) + i), b = a + 1;
            const uint32_t c = a + uint32_t(cells + 1), d = c + 1;
            // World (x, -z) is the ground plane: a, b, d, c run counter-clockwise seen from above.
            scene.indices.insert(scene.indices.end(), {a, b, d, a, d, c});
        }
    scene.expected_area = side * side;
    scene.expected_layers = 1;
    scene.expected_walls = {
        {{0, 0}, {side, 0}}, {{side, 0}, {side, side}}, {{side, side}, {0, side}}, {{0, side}, {0, 0}}};
    scene.notes = "one square floor of zero thickness at height 0, two triangles per cell";
    return scene;
}

} // namespace clearway::scenes

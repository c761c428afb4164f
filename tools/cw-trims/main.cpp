// cw-trims: vehicle control model (JSON) -> pre-integrated trim-trajectory table (.cwtt).
#include <clearway/tool_cli.h>

int main(int argc, char** argv) {
    using namespace clearway;
    CLI::App app{"Pre-integrate a vehicle's control model into a trim-trajectory table (Go, Vu and Kuffner,\n"
                 "\"Autonomous behaviors for interactive vehicle animations\", 2004): one trim\n"
                 "per (initial, final) angular-velocity control pair, 40 bytes each.\n"
                 "Model fields (JSON, // comments allowed; units: rad/s, seconds, m/s):\n"
                 "  name         string, optional\n"
                 "  dimension    2 (yaw only) or 3 (yaw and pitch, optional roll), required\n"
                 "  yaw          {\"max_rate\": rad/s >= 0, \"samples\": odd >= 3}, required\n"
                 "  pitch        same, required for dimension 3, not allowed for 2\n"
                 "  roll         same (samples odd >= 1), optional for dimension 3 [default: none]\n"
                 "  interval     seconds per control decision, (0, 3600] [default: 1]\n"
                 "  steps        fixed Euler steps per interval, [1, 100000] [default: 20]\n"
                 "  speed        m/s the table is integrated at; other speeds scale positions [default: 1]\n"
                 "  symmetric    store half the trims, mirror the rest (y -> -y) [default: true]\n" +
                 std::string(cli::kExitCodesHelp)};
    bake::TrimsRequest request;
    cli::CommonFlags flags;
    app.add_option("model", request.model_path, "Vehicle model spec (JSON, fields above)")->required();
    app.add_option("-o,--output", request.output_path, "Trim table to write (.cwtt), atomically")->required();
    cli::addIfChangedFlag(app, flags);
    cli::addCommonFlags(app, flags);
    CLEARWAY_CLI_PARSE(app, argc, argv);

    cli::SpdlogContext log("cw-trims");
    log.configure(flags);
    if (cli::skipUnchanged(log, flags, request, cli::trimsStamp)) return 0;
    bake::TrimsResult result;
    if (bake::Error error = cli::runWithProgress(log, request.model_path,
                                                 [&] { return bake::bakeTrimsFile(request, &result, log); }))
        return cli::fail(log, error);
    if (flags.json) {
        std::printf("%s\n", bake::trimsJson(result).c_str());
    } else if (!flags.quiet) {
        const bake::TrimTable& t = result.table;
        std::printf("%s: %uD, %u controls, %zu trims stored of %llu (%s), 40 B each, %zu bytes, max chord "
                    "deviation %.4f m, %.3f s\n",
                    request.output_path.c_str(), unsigned(t.model.dimension), t.controls, t.trims.size(),
                    static_cast<unsigned long long>(uint64_t(t.controls) * t.controls),
                    t.model.symmetric ? "mirror symmetric" : "full", result.file_bytes, t.max_chord_deviation,
                    result.seconds);
    }
    return 0;
}

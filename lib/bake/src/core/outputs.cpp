// Output files written all or nothing (OutputSet): path checks against the run's inputs and each
// other, symlink write-through, temporaries next to each target, cleanup on signals and of stale
// temporaries left by killed runs; renames rolled back when one fails.
#include <clearway/bake.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <iterator>
#include <fcntl.h>
#include <mutex>
#include <random>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace clearway::bake {

// What an output path will be written as: the end of its symbolic-link chain (which may not
// exist yet).
struct OutputSet::Target {
    std::string path;      // where the temporary goes and what the rename replaces
    std::string canonical; // realpath of the folder + name: equal strings are the same file
    bool exists = false;
    struct stat info {};
};

namespace {

using Target = OutputSet::Target;

// ----- temporaries the signal handler removes -----

// A fixed table, so the handler only reads memory and calls unlink (async-signal-safe). A slot
// is 0 free, 1 being filled, 2 holding a temporary's path.
constexpr size_t kSlots = 32;
struct Slot {
    std::atomic<int> state{0};
    char path[PATH_MAX];
};
Slot g_slots[kSlots];
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads slot states");

constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr size_t kSignalCount = sizeof kCleanupSignals / sizeof kCleanupSignals[0];
struct sigaction g_previous[kSignalCount];
bool g_installed[kSignalCount];
std::mutex g_handlers_mutex; // guards the two arrays above and g_registered
size_t g_registered = 0;

void removeTemporariesOnSignal(int signal_number) {
    const int saved_errno = errno;
    for (Slot& slot : g_slots)
        if (slot.state.load() == 2) unlink(slot.path);
    // Then whatever was there before runs: the default action ends the process, a tool's own
    // handler still sees the signal.
    for (size_t i = 0; i < kSignalCount; ++i)
        if (kCleanupSignals[i] == signal_number) sigaction(signal_number, &g_previous[i], nullptr);
    raise(signal_number); // blocked until this handler returns
    errno = saved_errno;
}

void installHandlers() {
    struct sigaction action {};
    action.sa_handler = removeTemporariesOnSignal;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < kSignalCount; ++i) {
        sigaction(kCleanupSignals[i], nullptr, &g_previous[i]);
        // An ignored signal (nohup) must stay ignored: the run goes on and needs its temporaries.
        g_installed[i] = g_previous[i].sa_handler != SIG_IGN;
        if (g_installed[i]) sigaction(kCleanupSignals[i], &action, nullptr);
    }
}

void restoreHandlers() {
    for (size_t i = 0; i < kSignalCount; ++i)
        if (g_installed[i]) sigaction(kCleanupSignals[i], &g_previous[i], nullptr);
}

// Returns the slot index, or kSlots when the table is full (the temporary is then only removed
// by the stale-temporary sweep of a later run).
size_t registerTemporary(const std::string& path) {
    if (path.size() >= PATH_MAX) return kSlots;
    for (size_t i = 0; i < kSlots; ++i) {
        int expected = 0;
        if (!g_slots[i].state.compare_exchange_strong(expected, 1)) continue;
        std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
        {
            std::lock_guard<std::mutex> lock(g_handlers_mutex);
            if (g_registered++ == 0) installHandlers();
        }
        g_slots[i].state.store(2);
        return i;
    }
    return kSlots;
}

void unregisterTemporary(size_t slot) {
    if (slot >= kSlots) return;
    g_slots[slot].state.store(0);
    std::lock_guard<std::mutex> lock(g_handlers_mutex);
    if (--g_registered == 0) restoreHandlers();
}

// ----- path checks -----

std::string folderOf(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::string nameOf(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

Error resolveTarget(const std::string& path, const std::string& what, Target* out) {
    if (path.empty()) return {ErrorCode::InvalidOption, what + ": the output path is empty"};
    std::string current = path;
    struct stat link {};
    for (int hops = 0; lstat(current.c_str(), &link) == 0 && S_ISLNK(link.st_mode); ++hops) {
        char target[PATH_MAX];
        const ssize_t n = hops < 40 ? readlink(current.c_str(), target, sizeof target - 1) : -1;
        if (n < 0)
            return {ErrorCode::InvalidOption, what + " " + path + ": cannot follow the symbolic link"};
        target[n] = '\0';
        current = target[0] == '/' ? std::string(target) : folderOf(current) + "/" + target;
    }
    Target t;
    t.path = current;
    t.exists = stat(current.c_str(), &t.info) == 0;
    if (t.exists && S_ISDIR(t.info.st_mode))
        return {ErrorCode::InvalidOption, what + " " + path + ": is a directory; give a file name"};
    if (t.exists && !S_ISREG(t.info.st_mode))
        return {ErrorCode::InvalidOption, what + " " + path +
                                              ": exists and is not a regular file (a device, FIFO or "
                                              "socket); refusing to replace it"};
    char folder[PATH_MAX];
    struct stat folder_info {};
    if (!realpath(folderOf(current).c_str(), folder) || stat(folder, &folder_info) != 0 ||
        !S_ISDIR(folder_info.st_mode))
        return {ErrorCode::WriteFailed, what + " " + path + ": folder " + folderOf(current) + " does not exist"};
    t.canonical = std::string(folder) + "/" + nameOf(current);
    *out = std::move(t);
    return {};
}

bool sameFile(const struct stat& a, const struct stat& b) {
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// ----- writing -----

// Temporaries of OUT from runs that were killed (their pid no longer exists) are removed.
void removeStaleTemporaries(const std::string& target) {
    const std::string prefix = nameOf(target) + ".tmp-";
    const std::string folder = folderOf(target);
    DIR* dir = opendir(folder.c_str());
    if (!dir) return;
    while (const dirent* entry = readdir(dir)) {
        const char* name = entry->d_name;
        if (std::strncmp(name, prefix.c_str(), prefix.size()) != 0) continue;
        char* end = nullptr;
        const long pid = std::strtol(name + prefix.size(), &end, 10);
        if (end == name + prefix.size() || *end != '-' || pid <= 0 || pid == getpid()) continue;
        if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) unlink((folder + "/" + name).c_str());
    }
    closedir(dir);
}

struct Staged {
    std::string temp;
    size_t slot = kSlots;
};

// OUT.tmp-<pid>-<hex>, registered for the signal handler before it exists: no window without
// cleanup.
void nameTemporary(const Target& target, Staged* staged) {
    std::random_device entropy;
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, ".tmp-%d-%08x", static_cast<int>(getpid()), entropy());
    staged->temp = target.path + suffix;
    staged->slot = registerTemporary(staged->temp);
}

Error writeTemporary(const Target& target, const void* data, size_t size, const std::string& what,
                     Staged* staged) {
    nameTemporary(target, staged);
    const int fd = open(staged->temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) return {ErrorCode::WriteFailed, what + " " + target.path + ": cannot create file: " + std::strerror(errno)};
    const auto* bytes = static_cast<const char*>(data);
    size_t done = 0;
    while (done < size) {
        const ssize_t n = ::write(fd, bytes + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        done += size_t(n);
    }
    bool ok = done == size;
    if (ok && target.exists) ok = fchmod(fd, target.info.st_mode & 07777) == 0;
    if (ok) ok = fsync(fd) == 0;
    const std::string reason = std::strerror(errno);
    ok = close(fd) == 0 && ok;
    if (!ok) return {ErrorCode::WriteFailed, what + " " + target.path + ": write failed: " + reason};
    return {};
}

// The old file at an existing target, kept under a temporary's name until every new file is in
// place: a second name for its inode (a hard link), or where the file system has none a copy with
// its mode. The target itself is never moved, so it always holds a whole file, old or new, and the
// signal handler or the stale sweep may remove a backup at any time.
Error backUp(const Target& target, const std::string& what, Staged* backup) {
    nameTemporary(target, backup);
    if (link(target.path.c_str(), backup->temp.c_str()) == 0) return {};
    unregisterTemporary(backup->slot);
    *backup = {};
    std::ifstream stream(target.path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
    if (!stream.good() && !stream.eof())
        return {ErrorCode::WriteFailed, what + " " + target.path + ": cannot keep a copy of the old file"};
    return writeTemporary(target, bytes.data(), bytes.size(), what, backup);
}

std::atomic<RenameFunction> g_rename_for_testing{nullptr};

int moveFile(const char* from, const char* to) {
    const RenameFunction rename = g_rename_for_testing.load();
    return rename ? rename(from, to) : std::rename(from, to);
}

// After the rename of output `renamed` failed, the outputs before it hold new files: each gets
// its old file back (or, new to this run, is removed), so a failed write() replaces nothing.
// Returns what could not be undone, for the error message (`names`: "-o PATH" of each output).
std::string rollBack(const std::vector<Target>& targets, size_t renamed,
                     const std::vector<std::string>& names, std::vector<Staged>* backups) {
    std::string failures;
    for (size_t j = 0; j < renamed; ++j) {
        Staged& backup = (*backups)[j];
        const bool restored = backup.temp.empty()
                                  ? unlink(targets[j].path.c_str()) == 0
                                  : moveFile(backup.temp.c_str(), targets[j].path.c_str()) == 0;
        if (!restored) {
            failures += "; cannot put back " + names[j] + ": " + std::strerror(errno);
            if (!backup.temp.empty()) failures += " (the old file is " + backup.temp + ")";
        }
        backup.temp.clear(); // restored, or kept for the user: not removed by discard
    }
    return failures;
}

void discard(std::vector<Staged>& staged) {
    for (Staged& s : staged) {
        if (!s.temp.empty()) unlink(s.temp.c_str());
        unregisterTemporary(s.slot);
    }
    staged.clear();
}

} // namespace

OutputSet::OutputSet(std::vector<std::string> inputs) : inputs_(std::move(inputs)) {}

void OutputSet::add(const std::string& path, const void* data, size_t size, const std::string& what) {
    outputs_.push_back({path, what, data, size});
}

void OutputSet::add(const std::string& path, const std::string& text, const std::string& what) {
    add(path, text.data(), text.size(), what);
}

Error OutputSet::check() const {
    std::vector<Target> targets;
    return resolveOutputs(&targets);
}

Error OutputSet::resolveOutputs(std::vector<Target>* targets) const {
    targets->assign(outputs_.size(), Target{});
    for (size_t i = 0; i < outputs_.size(); ++i) {
        const Output& o = outputs_[i];
        Target& t = (*targets)[i];
        if (Error e = resolveTarget(o.path, o.what, &t)) return e;
        for (const std::string& input : inputs_) {
            struct stat info {};
            if (!input.empty() && t.exists && stat(input.c_str(), &info) == 0 && sameFile(info, t.info))
                return {ErrorCode::InvalidOption, o.what + " " + o.path + ": is the input " + input +
                                                      "; refusing to overwrite an input"};
        }
        for (size_t j = 0; j < i; ++j) {
            const Target& other = (*targets)[j];
            if (other.canonical == t.canonical || (other.exists && t.exists && sameFile(other.info, t.info)))
                return {ErrorCode::InvalidOption, o.what + " " + o.path + ": is the same file as " +
                                                      outputs_[j].what + " " + outputs_[j].path +
                                                      "; give each output its own file"};
        }
    }
    return {};
}

Error OutputSet::write() {
    std::vector<Target> targets;
    if (Error e = resolveOutputs(&targets)) return e;
    std::vector<Staged> staged;
    for (size_t i = 0; i < outputs_.size(); ++i) {
        removeStaleTemporaries(targets[i].path);
        staged.emplace_back();
        if (Error e = writeTemporary(targets[i], outputs_[i].data, outputs_[i].size, outputs_[i].what,
                                     &staged.back())) {
            discard(staged);
            return e;
        }
    }
    std::vector<Staged> backups(outputs_.size());
    for (size_t i = 0; i < outputs_.size(); ++i) {
        if (!targets[i].exists) continue;
        if (Error e = backUp(targets[i], outputs_[i].what, &backups[i])) {
            discard(staged);
            discard(backups);
            return e;
        }
    }
    for (size_t i = 0; i < outputs_.size(); ++i) {
        if (moveFile(staged[i].temp.c_str(), targets[i].path.c_str()) != 0) {
            Error e{ErrorCode::WriteFailed,
                    outputs_[i].what + " " + outputs_[i].path +
                        ": cannot rename temp file into place: " + std::strerror(errno)};
            std::vector<std::string> names;
            for (const Output& o : outputs_)
                names.push_back(o.what + " " + o.path);
            e.message += rollBack(targets, i, names, &backups);
            discard(staged); // the ones already renamed are gone from their temporary names
            discard(backups);
            return e;
        }
        staged[i].temp.clear();
    }
    discard(staged); // only unregisters: every temporary was renamed
    discard(backups);
    return {};
}

void setOutputRenameForTesting(RenameFunction rename) {
    g_rename_for_testing.store(rename);
}

Error writeFileAtomic(const std::string& path, const void* data, size_t size) {
    OutputSet outputs;
    outputs.add(path, data, size);
    return outputs.write();
}

Error writeFileAtomic(const std::string& path, const std::string& text) {
    return writeFileAtomic(path, text.data(), text.size());
}

} // namespace clearway::bake

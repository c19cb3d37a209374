# Sourced by the CIFAR-10 GPU scripts: gridpe importable (the wheels of .whl/rt for an offline host), CIFAR-10 unpacked
# under .data/cifar10, the GPUs listed, MPS (re)started. Needs R and SITE set; exits 3 without the data.
[ -d .whl/rt ] && python3 -m pip install -q --no-index --no-deps --target $SITE .whl/rt/*.whl 2>/dev/null
export PYTHONPATH=$SITE:$PWD MPLBACKEND=Agg OMP_NUM_THREADS=2 MKL_NUM_THREADS=2
mkdir -p .data/cifar10; for t in train test; do [ -f .data/c10$t.tgz ] && [ ! -d .data/cifar10/$t ] && tar xzf .data/c10$t.tgz -C .data/cifar10; done
[ -d .data/cifar10/test ] && [ -d .data/cifar10/train ] || { echo "CIFAR-10 missing under .data/cifar10"; exit 3; }
nvidia-smi -L; date -u
# MPS lets the processes of one GPU run kernels at once; restarted on each start (once, resumed runs died silently at
# start right after the previous processes had been killed: a stale MPS server is one suspect)
echo quit | nvidia-cuda-mps-control 2>/dev/null; sleep 1; nvidia-cuda-mps-control -d && echo "MPS started"
mkdir -p $R/logs

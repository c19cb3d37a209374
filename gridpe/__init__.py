__version__ = "0.0.1"

import importlib, pkgutil, warnings
# fastai compiles a few layers with torch.jit.script at import time, which torch >= 2.10 marks deprecated: not ours to fix
warnings.filterwarnings('ignore', message=r'`torch\.jit\.script` is deprecated', category=FutureWarning)
# tqdm.auto (imported by a dependency) warns in Jupyter kernels without ipywidgets; the docs' outputs should not show it
warnings.filterwarnings('ignore', message='IProgress not found')

def __getattr__(name:str):
    "Import a submodule on first use, so `import gridpe; gridpe.rope.make_pe(...)` works and `import gridpe` stays light."
    if name in {m.name for m in pkgutil.iter_modules(__path__)} and not name.startswith('_'):
        return importlib.import_module(f'{__name__}.{name}')
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

def __dir__(): return sorted(set(globals()) | {m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith('_')})
